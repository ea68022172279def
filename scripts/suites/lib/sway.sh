# Shared by the suites that run the real waybar: a headless sway (pixman, no input devices) as the
# unprivileged USER_NAME, in $RUNTIME with HOME_DIR, and that user's session bus, which starts
# WORK's headlines-host (on WORK/headlines.conf, copied to the user's default config) when a bar
# asks for one, as the installed service file does. Source it, then `sway_start WORK`.
# Sets SOCK (sway's IPC socket) and DISPLAY_NAME (the Wayland display) and adds sway to PIDS.

# Runs a command as USER_NAME in a clean environment (AS_USER_ENV: extra NAME=value words).
as_user() {
    runuser -u "$USER_NAME" -- env -i PATH=/usr/bin:/bin HOME="$HOME_DIR" XDG_RUNTIME_DIR="$RUNTIME" \
        DBUS_SESSION_BUS_ADDRESS="${USER_BUS:-disabled:}" ${AS_USER_ENV:-} "$@"
}

# The packaged waybar style plus a plain font and padding for the given module selectors.
waybar_style() { # WORK SELECTORS
    cp packaging/waybar/style.css "$1/style.css"
    printf '* { font-family: DejaVu Sans; font-size: 13px; }\nwindow#waybar { background: #303446; color: #e5e9f0; }\n%s { padding: 0 10px; }\n' "$2" >> "$1/style.css"
    chmod 644 "$1"/*.json "$1"/*.conf "$1"/*.css
}
user_bus_start() { # WORK
    mkdir -p "$1/services" "$HOME_DIR/.config/headlines"
    printf '[D-BUS Service]\nName=org.headlines.Headlines\nExec=%s/headlines-host --from-bar\n' "$1" \
        > "$1/services/org.headlines.Headlines.service"
    [ -f "$1/headlines.conf" ] && cp "$1/headlines.conf" "$HOME_DIR/.config/headlines/headlines.conf"
    chown -R "$USER_NAME" "$HOME_DIR/.config"
    cat > "$1/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=$RUNTIME/bus</listen><servicedir>$1/services</servicedir>
<policy context="default"><allow send_destination="*"/><allow receive_sender="*"/><allow own="*"/></policy></busconfig>
CONF
    chmod 755 "$1/services"; chmod 644 "$1/bus.conf" "$1/services/org.headlines.Headlines.service"
    as_user dbus-daemon --config-file="$1/bus.conf" --fork --print-pid=1 > "$1/bus.pid" || die "the user's session bus did not start"
    USER_BUS=unix:path=$RUNTIME/bus
}
sway_start() { # WORK
    user_bus_start "$1"
    printf 'output * bg #202020 solid_color\n' > "$1/sway.conf"
    chmod 644 "$1/sway.conf"
    as_user env WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
        sway -c "$1/sway.conf" >"$1/sway.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 100); do ls "$RUNTIME"/wayland-* >/dev/null 2>&1 && ls "$RUNTIME"/sway-ipc.* >/dev/null 2>&1 && break; sleep 0.1; done
    SOCK=$(ls "$RUNTIME"/sway-ipc.* 2>/dev/null | head -n 1)
    DISPLAY_NAME=$(basename "$(ls "$RUNTIME"/wayland-* 2>/dev/null | grep -v lock | head -n 1)")
    [ -n "$SOCK" ] && [ -n "$DISPLAY_NAME" ] || { cat "$1/sway.log"; die "sway did not start"; }
}

# A grim screenshot of the bar (the top 28 pixels of the first output) to build/screenshots/NAME.
bar_screenshot() { # NAME
    mkdir -p "$ROOT/build/screenshots"
    as_user env WAYLAND_DISPLAY="$DISPLAY_NAME" grim -g "0,0 1280x28" "$HOME_DIR/shot.png" 2>/dev/null \
        || as_user env WAYLAND_DISPLAY="$DISPLAY_NAME" grim -o HEADLESS-1 "$HOME_DIR/shot.png" || die "grim failed"
    cp "$HOME_DIR/shot.png" "$ROOT/build/screenshots/$1"
    [ -s "$ROOT/build/screenshots/$1" ] || die "no screenshot"
}
