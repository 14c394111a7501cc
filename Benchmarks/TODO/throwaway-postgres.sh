# Sourced by the TODO benchmarks that run PostgreSQL (postgres.sh, live.sh): a throwaway server
# of the script's own, as the tests start one, but with PostgreSQL's default durability.
#
#   find_postgres_bindir            sets `bindir` to the server programs' folder, or "" if none
#   start_throwaway_postgres NAME   initdb into a new /tmp/NAME-XXXXXX, pg_ctl on a free port of
#                                   127.0.0.1 and a Unix socket in that folder, as the `postgres`
#                                   user when run as root (the server refuses root); sets
#                                   `server` (the folder) and `port`; stopped and removed on exit

find_postgres_bindir() {
    bindir=""
    for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r) "$(pg_config --bindir 2>/dev/null || true)"; do
        if [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then
            bindir="$candidate"
            break
        fi
    done
}

start_throwaway_postgres() {
    server="$(mktemp -d "/tmp/$1-XXXXXX")"
    as_server=()
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres "$server"
        as_server=(runuser -u postgres --)
    fi
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    trap stop_throwaway_postgres EXIT
    (cd / && "${as_server[@]}" "$bindir/initdb" --pgdata="$server/data" --username=postgres --auth=trust \
        --encoding=UTF8 --no-locale >/dev/null)
    (cd / && "${as_server[@]}" "$bindir/pg_ctl" start --pgdata="$server/data" --log="$server/server.log" --wait \
        --options="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$server" >/dev/null)
}

stop_throwaway_postgres() {
    (cd / && "${as_server[@]}" "$bindir/pg_ctl" stop --pgdata="$server/data" --mode=fast --wait >/dev/null 2>&1) || true
    rm -rf "$server"
}
