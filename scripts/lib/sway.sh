# A headless sway (pixman, no input devices) for the suites that run real Wayland bars and mako
# (sourced by common.sh). sway refuses root, so a suite run as root runs sway, its bars and that
# user's session bus as the unprivileged USER_NAME.
#   sway_suite NAME      USER_NAME (hlbar), WORK (readable by that user) holding the four
#                        programs, and the user's HOME_DIR and RUNTIME; stops the user's processes at exit
#   sway_start WORK [CONFIG]   the user's session bus, which starts WORK's headlines-host (on
#                        WORK/headlines.conf, copied to the user's default config) when a bar asks
#                        for one, as the installed service file does; then sway as the user, its
#                        config CONFIG. Sets SOCK (sway's IPC socket) and DISPLAY_NAME.
#   start_sway RUNTIME CONF LOG [PREFIX...]   sway itself, run by PREFIX (as_user, or nothing)
#   as_user COMMAND..., waybar_style WORK SELECTORS, bar_screenshot NAME [HEIGHT]

sway_suite() {
    USER_NAME=hlbar
    id "$USER_NAME" >/dev/null 2>&1 || useradd --create-home --shell /bin/sh "$USER_NAME" || die "cannot create user $USER_NAME"
    suite_dir "$1"
    chmod 755 "$WORK"
    EXIT_HOOKS+=("pkill -u $USER_NAME")
    install_programs "$WORK"
    HOME_DIR=$WORK/home; RUNTIME=$WORK/runtime
    mkdir -p "$HOME_DIR" "$RUNTIME"; chmod 700 "$RUNTIME"; chown "$USER_NAME" "$HOME_DIR" "$RUNTIME"
}

# Runs a command as USER_NAME in a clean environment (AS_USER_ENV: extra NAME=value words).
as_user() {
    runuser -u "$USER_NAME" -- env -i PATH=/usr/bin:/bin HOME="$HOME_DIR" XDG_RUNTIME_DIR="$RUNTIME" \
        DBUS_SESSION_BUS_ADDRESS="${USER_BUS:-disabled:}" ${AS_USER_ENV:-} "$@"
}

# The packaged waybar style plus a plain font and padding for the given module selectors.
waybar_style() {
    cp packaging/waybar/style.css "$1/style.css"
    printf '* { font-family: DejaVu Sans; font-size: 13px; }\nwindow#waybar { background: #303446; color: #e5e9f0; }\n%s { padding: 0 10px; }\n' "$2" >> "$1/style.css"
    chmod 644 "$1"/*.json "$1"/*.conf "$1"/*.css
}

user_bus_start() { # WORK
    mkdir -p "$HOME_DIR/.config/headlines"
    headlines_service "$1/services" "$1/headlines-host --from-bar"
    [ -f "$1/headlines.conf" ] && cp "$1/headlines.conf" "$HOME_DIR/.config/headlines/headlines.conf"
    chown -R "$USER_NAME" "$HOME_DIR/.config"
    bus_config "$1/bus.conf" "unix:path=$RUNTIME/bus" "$1/services"
    chmod -R a+rX "$1/services" "$1/bus.conf"
    as_user dbus-daemon --config-file="$1/bus.conf" --fork --print-pid=1 > "$1/bus.pid" || die "the user's session bus did not start"
    USER_BUS=unix:path=$RUNTIME/bus
}

sway_sockets() { # RUNTIME: sets SOCK and DISPLAY_NAME once sway has made both
    SOCK=$(ls "$1"/sway-ipc.* 2>/dev/null | head -n 1)
    DISPLAY_NAME=$(ls "$1"/wayland-* 2>/dev/null | grep -v lock | head -n 1)
    DISPLAY_NAME=${DISPLAY_NAME##*/}
    [ -n "$SOCK" ] && [ -n "$DISPLAY_NAME" ]
}
start_sway() {
    local runtime=$1 conf=$2 log=$3; shift 3
    "$@" env WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman sway -c "$conf" >"$log" 2>&1 &
    PIDS+=($!)
    wait_for "sway's sockets" 10 sway_sockets "$runtime" || { cat "$log"; die "sway did not start"; }
}
sway_start() {
    user_bus_start "$1"
    printf 'output * bg #202020 solid_color\n%s\n' "${2:-}" > "$1/sway.conf"
    chmod 644 "$1/sway.conf"
    start_sway "$RUNTIME" "$1/sway.conf" "$1/sway.log" as_user
}

# A grim screenshot of the bar (the top HEIGHT pixels, 28 unless given, of the first output) to build/screenshots/NAME.
bar_screenshot() {
    mkdir -p "$ROOT/build/screenshots"
    as_user env WAYLAND_DISPLAY="$DISPLAY_NAME" grim -g "0,0 1280x${2:-28}" "$HOME_DIR/shot.png" 2>/dev/null \
        || as_user env WAYLAND_DISPLAY="$DISPLAY_NAME" grim -o HEADLESS-1 "$HOME_DIR/shot.png" || die "grim failed"
    cp "$HOME_DIR/shot.png" "$ROOT/build/screenshots/$1"
    [ -s "$ROOT/build/screenshots/$1" ] || die "no screenshot"
}
