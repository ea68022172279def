# A private session bus for a script (sourced): the hosts it starts own org.headlines.Headlines
# there, and `reload_host` asks them to reload as `headlines refresh` would, without waiting.
#   private_bus_start FOLDER [SERVICE_DIR]   exports DBUS_SESSION_BUS_ADDRESS, sets BUS_PID
#   headlines_service DIR   the service file activating this build's host (as the packaged one
#                           does the installed host), reading the default config file
private_bus_start() {
    local folder=$1 services=${2:-}
    mkdir -p "$folder"
    {
        echo '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"'
        echo ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">'
        echo "<busconfig><type>session</type><listen>unix:path=$folder/bus</listen>"
        [ -n "$services" ] && echo "<servicedir>$services</servicedir>"
        echo '<policy context="default"><allow send_destination="*"/><allow receive_sender="*"/><allow own="*"/></policy>'
        echo '</busconfig>'
    } > "$folder/bus.conf"
    local out
    out=$(dbus-daemon --config-file="$folder/bus.conf" --fork --print-address=1 --print-pid=1) || return 1
    export DBUS_SESSION_BUS_ADDRESS=$(sed -n 1p <<<"$out")
    BUS_PID=$(sed -n 2p <<<"$out")
}
private_bus_stop() { [ -n "${BUS_PID:-}" ] && kill "$BUS_PID" 2>/dev/null; BUS_PID=; }
# reload_host [WIDGET]: the host's Reload method; status 0 when the host answered.
reload_host() {
    gdbus call --session --dest org.headlines.Headlines --object-path /org/headlines/Headlines \
        --method org.headlines.Headlines1.Reload "${1:-}" >/dev/null 2>&1
}
headlines_service() {
    mkdir -p "$1"
    sed "s|^Exec=.*|Exec=${HEADLINES_BIN:?}/headlines-host --from-bar|; /^SystemdService=/d" \
        packaging/dbus/org.headlines.Headlines.service > "$1/org.headlines.Headlines.service"
}
