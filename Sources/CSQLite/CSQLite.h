// The system's SQLite (libsqlite3-dev on Debian and Ubuntu, the sqlite formula on Homebrew), for
// the TODO sample only: the UndoKit library never imports it.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift does not import:
// binding text with it makes SQLite copy the bytes before the call returns.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
