// The system's libpq, PostgreSQL's client library (libpq-dev on Debian and Ubuntu, the libpq
// formula on Homebrew), for the TODO sample only: the UndoKit library never imports it.
// pkg-config's cflags for libpq put its include directory (/usr/include/postgresql on Debian)
// on the search path, where libpq-fe.h is.
#include <libpq-fe.h>
