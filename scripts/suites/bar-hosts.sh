#!/usr/bin/env bash
# The real bar programs Debian ships, each running its snippet from packaging/bars/, beside one
# `headlines run` host fed by the loopback news server: polybar, lemonbar, xmobar, yambar, conky
# and xfce4-panel's Generic Monitor on one Xvfb display, tmux inside an xterm there. For each of
# five headlines (a plain one, three full of the hosts' markup, one of 100 KB) the suite checks,
# for every bar:
#   shows     tmux: a second client's status line, as text. xmobar and conky: their own text
#             output (xmobar -T, conky's out_to_console) is exactly our line. The X bars: the
#             window's screenshot, in a monospace font, has ink as wide as our line (so markup
#             the bar read instead of showing, or an empty bar, fails; letters are not read);
#   survives  the bar is still running, and no title ran a command (each would create a file);
#   clicks    real XTEST clicks (xdotool) along the bar's text each open the headline shown in the
#             fake browser, markup titles included (conky has no click path: reported not run).
# And with all of them running, the host makes one request per reload.
# Screenshots of the plain headline go to build/screenshots/bar-NAME.png (and to
# packaging/screenshots/ with UPDATE_SCREENSHOTS=1).
# Every check prints "ok:" or "not ok:"; a check that cannot be made here prints "not run:".
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
. scripts/lib/common.sh
not_run() { echo "  not run: $*"; }

suite_dir bar-hosts
session_start "$WORK/session"
SHOTS=$ROOT/build/screenshots
mkdir -p "$SHOTS" "$WORK/bin"
# The programs on PATH as `make install` puts them: the snippets name them without a folder.
install_programs "$WORK/bin"
export PATH=$WORK/bin:$PATH
ARTICLES=$WORK/articles.json
feed() { python3 "$LIB/articles.py" "$ARTICLES" 3 "$1"; } # four headlines; rotate = 0: bars show the newest, $1
feed "Lunar rover finds water ice in a shadowed crater"
start_news_server "$WORK/requests.log" --articles "$ARTICLES"
export APITUBE_API_KEY=suite-key-bar-hosts
mkdir -p "$XDG_CONFIG_HOME/headlines"
news_config "$XDG_CONFIG_HOME/headlines/headlines.conf" '[refresh]' 'interval = 2s' 'daily-budget = 86400' '[notify]' 'enabled = false' '[bar]' 'max-length = 120'
headlines run 2>"$WORK/host.log" & PIDS+=($!)
wait_for "the host's first headline" 15 bash -c 'headlines list --json | grep -q "Lunar rover"' \
    || { cat "$WORK/host.log"; die "the host did not fetch the feed"; }

FONT_PX=14
BG=303446
MONO="DejaVu Sans Mono"
SNIPPETS=$ROOT/packaging/bars
# Each bar runs our snippet from packaging/bars/ as shipped; the suite only adds a place on the
# 1280x800 screen, a monospace font and short intervals, each said below.
# polybar: our module, included into a bar at the top.
cat > "$WORK/polybar.ini" <<CONF
include-file = $SNIPPETS/polybar/config.ini
[bar/suite]
width = 1280
height = 24
override-redirect = true
background = #$BG
foreground = #e5e9f0
font-0 = $MONO:pixelsize=$FONT_PX;3
modules-left = headlines
CONF
# lemonbar: our script, with a lemonbar that is given a place and a name after the script's options.
cat > "$WORK/bin/lemonbar" <<SH
#!/bin/sh
exec /usr/bin/lemonbar "\$@" -g 1280x24+0+40 -B "#$BG" -F "#e5e9f0" -n headlines-lemonbar
SH
chmod +x "$WORK/bin/lemonbar"
# xmobar: our config with its font swapped for the monospace one and a place at y=80.
sed "s|font = \"[^\"]*\"|font = \"$MONO ${FONT_PX}px\", bgColor = \"#$BG\", fgColor = \"#e5e9f0\", overrideRedirect = True, position = Static { xpos = 0, ypos = 80, width = 1280, height = 24 }|" \
    "$SNIPPETS/xmobar/xmobarrc" > "$WORK/xmobar.hs"
# yambar: our config at the bottom, in the monospace font, with the programs where this suite has them.
sed -e "s|/usr/bin/|$WORK/bin/|g" -e "s|location: top|location: bottom|" -e "s|font: .*|font: $MONO:pixelsize=$FONT_PX|" \
    "$SNIPPETS/yambar/config.yml" > "$WORK/yambar.yml"
# conky: our config, then a window at y=160 in the monospace font, also printing to the console,
# and execpi every 2 s instead of 15.
{ cat "$SNIPPETS/conky/headlines.conkyrc"; cat <<CONF
for k, v in pairs({ out_to_console = true, own_window_type = 'override', alignment = 'top_left', gap_x = 0,
    gap_y = 160, minimum_width = 1280, maximum_width = 1280, use_xft = true, font = '$MONO:pixelsize=$FONT_PX',
    update_interval = 1, own_window_colour = '$BG', default_color = 'e5e9f0', double_buffer = true }) do
    conky.config[k] = v
end
conky.text = conky.text:gsub('execpi 15 ', 'execpi 2 ')
CONF
} > "$WORK/conky.conf"
# tmux: our lines, then a status every second, and the mouse with a click on status-right
# bound to `headlines open` (the headline on display).
cat > "$WORK/tmux.conf" <<CONF
source-file $SNIPPETS/tmux/tmux.conf
set -g status-interval 1
set -g status-left ''
set -g mouse on
bind -n MouseDown1StatusRight run-shell -b 'headlines open'
CONF
# xfce4-panel: one floating panel across y=456..484 holding a Generic Monitor with the command and
# a 2 s period, as packaging/bars/genmon/README.md says to set them (15 s there).
grep -q 'Command: `headlines-bar genmon`' "$SNIPPETS/genmon/README.md" || die "packaging/bars/genmon/README.md names no command"
mkdir -p "$XDG_CONFIG_HOME/xfce4/xfconf/xfce-perchannel-xml" "$XDG_CONFIG_HOME/xfce4/panel"
cat > "$XDG_CONFIG_HOME/xfce4/xfconf/xfce-perchannel-xml/xfce4-panel.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<channel name="xfce4-panel" version="1.0">
  <property name="configver" type="int" value="2"/>
  <property name="panels" type="array">
    <value type="int" value="1"/>
    <property name="panel-1" type="empty">
      <property name="position" type="string" value="p=0;x=640;y=470"/>
      <property name="length" type="uint" value="100"/>
      <property name="position-locked" type="bool" value="true"/>
      <property name="size" type="uint" value="26"/>
      <property name="plugin-ids" type="array"><value type="int" value="1"/></property>
    </property>
  </property>
  <property name="plugins" type="empty"><property name="plugin-1" type="string" value="genmon"/></property>
</channel>
XML
printf 'Command=headlines-bar genmon\nUseLabel=0\nText=\nUpdatePeriod=2000\nFont=%s 10\n' "$MONO" > "$XDG_CONFIG_HOME/xfce4/panel/genmon-1.rc"
for snippet in polybar/config.ini lemonbar/headlines-lemonbar xmobar/xmobarrc yambar/config.yml conky/headlines.conkyrc tmux/tmux.conf; do
    [ -f "$SNIPPETS/$snippet" ] || die "no snippet packaging/bars/$snippet"
done

# Each bar in a process group of its own (setsid), so that stopping it stops what it started too.
GROUPS_STARTED=()
start() { # LOG COMMAND...: sets STARTED
    setsid "${@:2}" >"$1" 2>&1 & STARTED=$!; GROUPS_STARTED+=($STARTED)
}
start "$WORK/polybar.log" polybar -c "$WORK/polybar.ini" suite; POLYBAR=$STARTED
start "$WORK/lemonbar.log" sh "$SNIPPETS/lemonbar/headlines-lemonbar"; LEMONBAR=$STARTED
start "$WORK/xmobar.log" xmobar "$WORK/xmobar.hs"; XMOBAR=$STARTED
start "$WORK/xmobar.text" xmobar -T "$WORK/xmobar.hs"
start "$WORK/yambar.log" yambar -c "$WORK/yambar.yml"; YAMBAR=$STARTED
start "$WORK/conky.text" bash -c 'exec conky -c "$1" 2>"$2"' _ "$WORK/conky.conf" "$WORK/conky.log"; CONKY=$STARTED
# xfconfd by hand: the suite's private bus activates no service.
start "$WORK/xfconfd.log" /usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd
wait_for "xfconfd on the bus" 10 bash -c 'dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.xfce.Xfconf | grep -q "boolean true"' \
    || die "xfconfd did not start: $(cat "$WORK/xfconfd.log")"
start "$WORK/genmon.log" xfce4-panel --disable-wm-check; GENMON=$STARTED
start "$WORK/xterm.log" xterm -geometry 160x4+0+320 -fa "$MONO" -fs 10 -bg "#$BG" -fg "#e5e9f0" -title headlines-tmux \
    -e tmux -L hl-inner -f "$WORK/tmux.conf" new-session -s bar; XTERM=$STARTED
stop_bars() {
    tmux -L hl-outer kill-server 2>/dev/null; tmux -L hl-inner kill-server 2>/dev/null
    local group; for group in "${GROUPS_STARTED[@]}"; do kill -- -"$group" 2>/dev/null; done
}
EXIT_HOOKS+=(stop_bars)
# A second tmux client, inside a tmux of its own, so the status line the bar draws can be read back.
wait_for "tmux's session" 10 tmux -L hl-inner has-session -t bar || die "tmux did not start in the xterm"
tmux -L hl-outer new-session -d -x 160 -y 4 "tmux -L hl-inner attach -t bar" || die "the reading tmux did not start"

# Each X bar: how to find its window, where its text starts (y of a click), and the advance of its
# monospace font as it draws it here, in pixels (polybar scales pixelsize by the screen's 96 dpi;
# lemonbar 1.4 draws with the core font "fixed", 6 pixels a character).
X_BARS=(polybar lemonbar xmobar yambar conky genmon)
declare -A WINDOW CLICK_Y ADVANCE PID
PID=([polybar]=$POLYBAR [lemonbar]=$LEMONBAR [xmobar]=$XMOBAR [yambar]=$YAMBAR [conky]=$CONKY [genmon]=$GENMON [tmux]=$XTERM)
CLICK_Y=([polybar]=12 [lemonbar]=52 [xmobar]=92 [yambar]=787 [genmon]=470)
ADVANCE=([polybar]=11 [lemonbar]=6 [xmobar]=8 [yambar]=8 [conky]=8 [genmon]=8)
find_window() { # NAME: sets WINDOW[NAME]
    local id=""
    case $1 in
        polybar) id=$(xdotool search --class Polybar | head -n 1) ;;
        lemonbar) id=$(xdotool search --name '^headlines-lemonbar$' | head -n 1) ;;
        xmobar) id=$(xdotool search --name '^xmobar$' | head -n 1) ;;
        yambar) id=$(xdotool search --name '^yambar$' | head -n 1) ;;
        conky) id=$(sed -n 's/.*drawing to created window (\(0x[0-9a-f]*\)).*/\1/p' "$WORK/conky.log" | head -n 1) ;;
        genmon) id=$(xdotool search --onlyvisible --name '^xfce4-panel$' | head -n 1) ;;
        tmux) id=$(xdotool search --name '^headlines-tmux$' | head -n 1) ;;
    esac
    [ -n "$id" ] && WINDOW[$1]=$id
}
for bar in "${X_BARS[@]}" tmux; do
    wait_for "$bar's window" 15 find_window "$bar" || die "$bar opened no window: $(tail -n 5 "$WORK/$bar.log" 2>/dev/null)"
done
shot() { import -window "${WINDOW[$1]}" "$WORK/$1.png" 2>/dev/null; } # NAME
# ink_box NAME: "WIDTH LEFT" of the ink in NAME's window, in pixels ("0 0" for a blank bar).
ink_box() {
    shot "$1" || { echo "0 0"; return; }
    # WxH+X+Y of what is not background, within a 2-pixel frame (xfce4-panel draws a border).
    local box; box=$(convert "$WORK/$1.png" -shave 2x2 -fuzz 25% -format '%@' info: 2>/dev/null)
    local w=${box%%x*} rest=${box#*+}
    [ "$rest" != "$box" ] && [ "$w" -gt 1 ] || { echo "0 0"; return; }
    echo "$w $(( ${rest%%+*} + 2 ))"
}
# ink_chars NAME: how many characters wide the ink in NAME's window is (0 for a blank bar).
ink_chars() {
    local w x; read -r w x < <(ink_box "$1")
    echo $(( (w + ${ADVANCE[$1]} / 2) / ${ADVANCE[$1]} ))
}
chars() { printf '%s' "$1" | python3 -c 'import sys; print(len(sys.stdin.read()))'; }
# wide_as NAME N: the window's ink is N characters wide, give or take two and one in twenty.
wide_as() { local got; got=$(ink_chars "$1"); INK=$got; local d=$((got - $2)); [ "${d#-}" -le $((2 + $2 / 20)) ]; }
tmux_status() { tmux -L hl-outer capture-pane -p -t 0 | tail -n 1 | sed 's/ *$//'; }
shown() { headlines list --json | python3 -c 'import json,sys; h=json.load(sys.stdin)[0]; print(h[sys.argv[1]])' "$1"; }
# clicks_open NAME Y X...: a real click at each X,Y opens exactly the shown headline, once each.
clicks_open() {
    local bar=$1 y=$2 x n=0; shift 2
    : >"$BROWSER_LOG"
    for x in "$@"; do
        # `open --from-lemonbar` opens clicks at a person's pace (a burst, then 4 a second):
        # lemonbar's come no faster than that.
        [ "$bar" = lemonbar ] && sleep 0.3
        xdotool mousemove --sync "$x" "$y" click 1 || return 1
        n=$((n + 1))
        wait_for "$bar's click at x=$x to reach the fake browser" 5 bash -c '[ "$(wc -l < "$1")" -ge "$2" ]' _ "$BROWSER_LOG" "$n" \
            || { CLICKED="nothing at x=$x"; return 1; }
    done
    CLICKED=$(sort -u "$BROWSER_LOG" | tr '\n' ' ')
    [ "$(sort -u "$BROWSER_LOG")" = "$(shown url)" ] && [ "$(wc -l < "$BROWSER_LOG")" -eq "$n" ]
}
PWNED=/tmp/hl-pwned
rm -f "$PWNED"

# phase LABEL TITLE: puts TITLE on the server, waits for the host to have it, checks every bar.
phase() {
    local label=$1 title=$2 bar
    echo "$label"
    feed "$title"
    wait_for "the host to have the new headline" 15 bash -c '[ "$(headlines list --json | python3 -c "import json,sys; print(json.load(sys.stdin)[0][\"title\"][:200])")" = "${1:0:200}" ]' _ "$title" \
        || { not_ok "the host never showed the $label headline"; return; }
    local plain n conky_lines tmux_line
    plain=$(headlines-bar plain | head -n 1)
    # What conky and tmux show, read by their grammar from what we print: conky's $$ is $ and \# is #, tmux's ## is #.
    conky_lines=$(headlines-bar conky | sed 's/\$\$/$/g; s/\\#/#/g')
    tmux_line=$(headlines-bar tmux | head -n 1 | sed 's/##/#/g')
    # tmux keeps the first status-right-length characters.
    tmux_line=$(python3 -c 'import sys; print(sys.argv[1][:int(sys.argv[2])])' "$tmux_line" "$(tmux -L hl-inner show -gv status-right-length)")
    for bar in "${X_BARS[@]}"; do
        n=$(chars "$plain")
        [ "$bar" = conky ] && n=$(printf '%s\n' "$conky_lines" | python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in sys.stdin))')
        [ "$n" -gt $((1280 / ${ADVANCE[$bar]})) ] && n=$((1280 / ${ADVANCE[$bar]})) # as much as the bar's width holds
        if wait_for "$bar to draw $n characters" 10 wide_as "$bar" "$n"; then
            ok "$bar draws text $INK characters wide, as wide as our line ($n)"
        else
            not_ok "$bar draws text $INK characters wide; our line is $n: '${plain:0:80}'"
        fi
    done
    local count; count=$(printf '%s\n' "$conky_lines" | wc -l)
    if wait_for "conky's text" 5 bash -c '[ "$(grep -v "^$" "$1" | tail -n "$3")" = "$2" ]' _ "$WORK/conky.text" "$conky_lines" "$count"; then
        ok "conky's console shows our $count lines"
    else
        not_ok "conky's console shows '$(grep -v "^$" "$WORK/conky.text" | tail -n "$count" | head -c 300)', not '${conky_lines:0:300}'"
    fi
    check "xmobar -T shows our line" wait_for "xmobar's text" 5 bash -c '[ "$(grep -v "^$" "$1" | tail -n 1 | sed "s/^ *//; s/ *\$//")" = "$2" ]' _ "$WORK/xmobar.text" "$plain"
    if wait_for "tmux's status line" 5 bash -c '[[ "$(tmux -L hl-outer capture-pane -p -t 0 | tail -n 1 | sed "s/ *\$//")" == *"$1" ]]' _ "$tmux_line"; then
        ok "tmux's status line ends with our line"
    else
        not_ok "tmux's status line is '$(tmux_status)', not ending in '$tmux_line'"
    fi
}
# clicks: clicks each clickable bar along its text, every 80 pixels (the hostile titles' would-be
# action texts are wider); each click opens the shown headline.
clicks() {
    local bar width left xs
    for bar in polybar lemonbar xmobar yambar genmon; do
        read -r width left < <(ink_box "$bar")
        xs=$(seq $((left + 5)) 80 $((left + width)))
        if clicks_open "$bar" "${CLICK_Y[$bar]}" $xs; then ok "$(echo $xs | wc -w) clicks along $bar's text each opened $CLICKED"
        else not_ok "clicks along $bar's text opened $CLICKED, not $(shown url)"; fi
    done
    # tmux's status-right is right-aligned: its end is the xterm's last row, right edge.
    if clicks_open tmux 383 1260; then ok "a click on tmux's status line (xterm, mouse on) opened $CLICKED"
    else not_ok "a click on tmux's status line opened $CLICKED, not $(shown url)"; fi
    not_run "a click on conky: conky's execpi text has no click path"
}
survived() {
    local bar
    for bar in "${X_BARS[@]}" tmux; do
        check "$bar is still running" kill -0 "${PID[$bar]}"
    done
    check "no title ran a command (no $PWNED)" test ! -e "$PWNED"
    rm -f "$PWNED"
}

phase "a plain headline" "Lunar rover finds water ice in a shadowed crater"
# The pictures: 760 pixels of each bar from where its text starts (tmux: the right end of the
# xterm's last row, its status line).
for bar in "${X_BARS[@]}" tmux; do
    if [ "$bar" = tmux ]; then shot tmux && convert "$WORK/tmux.png" -gravity SouthEast -crop 760x22+0+0 +repage "$SHOTS/bar-tmux.png"
    else read -r width left < <(ink_box "$bar"); convert "$WORK/$bar.png" -crop 760x+$((left > 8 ? left - 8 : 0))+0 +repage "$SHOTS/bar-$bar.png"; fi
    [ "${UPDATE_SCREENSHOTS:-0}" = 1 ] && cp "$SHOTS/bar-$bar.png" "$ROOT/packaging/screenshots/bar-$bar.png"
done
check "screenshots in build/screenshots/bar-{$(IFS=,; echo "${X_BARS[*]}"),tmux}.png" \
    bash -c 'for f in "$@"; do [ -s "$f" ] || exit 1; done' _ $(for bar in "${X_BARS[@]}" tmux; do echo "$SHOTS/bar-$bar.png"; done)
clicks
RUNS='clicking here runs a command'
phase "polybar and lemonbar markup" "Fish & <b>chips</b> %{A1:touch $PWNED:}$RUNS%{A} %{F#f00}red |x|y"
clicks
survived
phase "tmux and xmobar markup" "#[fg=red]#(touch $PWNED) <action=\`touch $PWNED\`>$RUNS</action> a|b"
clicks
survived
phase "conky, yambar and genmon markup" "\${exec touch $PWNED} <raw=3:abc/> |c|string|d </txt><txtclick>touch $PWNED</txtclick>"
clicks
survived
phase "a 100 KB title" "$(python3 -c 'print(("Long " * 20480).strip())')"
survived

# Right after a reload is logged the next request is an interval away, so the counts can be compared.
reloads() { grep -c "reload ok" "$WORK/host.log"; }
before=$(reloads)
if wait_for "one more reload" 10 bash -c '[ "$(grep -c "reload ok" "$1")" -gt "$2" ]' _ "$WORK/host.log" "$before"; then
    reloads=$(reloads); requests=$(wc -l < "$WORK/requests.log")
    check "$requests requests for $reloads reloads with six bars following one host" test "$requests" -eq "$reloads"
else
    not_ok "the host stopped reloading"
fi
grep -rq "$APITUBE_API_KEY" "$WORK"/*.log "$WORK"/*.text 2>/dev/null && not_ok "the API key appeared in a bar's output" || ok "the API key appears in no bar's output"
echo "bar-hosts: $failed failed"
[ "$failed" -eq 0 ]
