#!/usr/bin/env bash
# The Plasma applet (packaging/plasma/) in the real Plasma 5.27 stack: plasmawindowed (from
# plasma-workspace) on an Xvfb display, inside its own session bus (dbus-run-session, which also
# takes down what the bus started: the accessibility bus, dunst), beside one `headlines run` host
# fed by the loopback news server. The applet is read through AT-SPI and given real XTEST clicks
# and wheel notches (xdotool). plasmawindowed shows the desktop form: the head line (the panel's
# whole form, the same item) over the list. It checks that
#   shows     the head line and the list show the host's current headline, as text, and one
#             headlines-bar waits for the next document (not a timer);
#   wheel     a wheel notch on the head line turns every bar to the next headline, the applet too;
#   click     a left click on the head line opens the headline shown (after the wheel: not the
#             first) in the fake browser, and a click on a row opens that row's;
#   list      the list shows every headline with its source and age;
#   hostile   a title of markup, shell commands and 100 KB (the host hands widgets its first 300
#             characters) shows as that literal text and opens its own link; a title of markup
#             but one letter is drawn as text (its ink spans its labels); nothing ran;
#             plasmawindowed keeps running;
#   missing   without headlines-bar on PATH the applet says so.
# Not checked here: the panel form inside a real panel (plasmashell), its middle click.
# The picture of the list goes to build/screenshots/plasma.png (and to packaging/screenshots/
# with UPDATE_SCREENSHOTS=1).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
. scripts/lib/common.sh

if [ -z "${PLASMA_SUITE_WORK:-}" ]; then
    command -v plasmawindowed >/dev/null || die "no plasmawindowed: scripts/install-deps.sh --test installs plasma-workspace"
    suite_dir plasma
    isolated_home "$WORK/home"
    # The display first, so that what the bus starts finds it.
    start_xvfb "$WORK/xvfb.log"
    PLASMA_SUITE_WORK=$WORK dbus-run-session -- bash "$0"
    exit $?
fi

# Inside the session bus.
WORK=$PLASMA_SUITE_WORK
SHOTS=$ROOT/build/screenshots
mkdir -p "$SHOTS" "$WORK/bin"
fake_browser "$HOME"
# The programs on PATH as `make install` puts them: the applet runs them without a folder.
install_programs "$WORK/bin"
export PATH=$WORK/bin:$PATH
ARTICLES=$WORK/articles.json
feed() { python3 "$LIB/articles.py" "$ARTICLES" 3 "$1"; } # four headlines, $1 the newest
feed "Lunar rover finds water ice in a shadowed crater"
mkdir -p "$WORK/www"
python3 "$LIB/make_png.py" "$WORK/www/picture.png" 256 256
start_news_server "$WORK/requests.log" --articles "$ARTICLES" --root "$WORK/www"
# The numbered headlines have a picture: the host cuts their thumbnails from it.
export ARTICLE_IMAGE=http://127.0.0.1:$PORT/picture.png
feed "Lunar rover finds water ice in a shadowed crater"
export APITUBE_API_KEY=suite-key-plasma
mkdir -p "$XDG_CONFIG_HOME/headlines"
# Notifications on: the host stores images (and cuts thumbnails) only for them. The session bus
# starts a notification server for them (dunst), which draws at the screen's right, away from
# the applet.
news_config "$XDG_CONFIG_HOME/headlines/headlines.conf" '[refresh]' 'interval = 2s' 'daily-budget = 86400'
headlines run 2>"$WORK/host.log" & PIDS+=($!)
wait_for "the host's first headline" 15 bash -c 'headlines list --json | grep -q "Lunar rover"' \
    || { cat "$WORK/host.log"; die "the host did not fetch the feed"; }
# shown FIELD: that field of the headline every bar shows now, from the host's widget document.
shown() {
    headlines-bar json --changed-from 0 | sed 1d \
        | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["items"][d["index"]][sys.argv[1]])' "$1"
}

# The applet where `make install` puts it under a prefix, here the user's data folder.
mkdir -p "$XDG_DATA_HOME/plasma/plasmoids"
cp -r "$ROOT/packaging/plasma/org.headlines.headlines" "$XDG_DATA_HOME/plasma/plasmoids/"
export QT_QPA_PLATFORM=xcb QT_QUICK_BACKEND=software LIBGL_ALWAYS_SOFTWARE=1 QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1
dbus-update-activation-environment DISPLAY XDG_RUNTIME_DIR XDG_DATA_DIRS XDG_DATA_HOME QT_QPA_PLATFORM QT_QUICK_BACKEND LIBGL_ALWAYS_SOFTWARE

window() { WINDOW=$(xdotool search --onlyvisible --pid "$PLASMA" 2>/dev/null | head -n 1); [ -n "$WINDOW" ]; }
# start_applet NAME: a new plasmawindowed holding the applet, its window at 0,0 and 520x300.
# plasmawindowed shows an applet's desktop form (a panel would show the head line alone: the same
# CurrentHeadline item). Its window's size is set in its config, so that the applet is made at
# that size: made at the 160x160 plasmawindowed opens at, it would show the panel's form, which
# gets no clicks there (the panel's wrapper comes with plasma-desktop). A fresh config numbers the
# applet 3.
start_applet() {
    printf '[Applets][3][Configuration]\ngeometry=0,0,520,300\n' >"$XDG_CONFIG_HOME/plasmawindowedrc"
    plasmawindowed org.headlines.headlines >"$WORK/plasmawindowed-$1.log" 2>&1 & PLASMA=$!
    PIDS+=($PLASMA)
    wait_for "plasmawindowed's window" 15 window || die "plasmawindowed opened no window: $(tail -n 5 "$WORK/plasmawindowed-$1.log")"
}
stop_applet() {
    check "plasmawindowed is still running" kill -0 "$PLASMA"
    kill "$PLASMA"; wait "$PLASMA" 2>/dev/null
}
# shows TEXT: the applet has a node named exactly TEXT, within 10 s; BOXES: "X Y W H" of each
# such node on the screen, one a line.
shows() { BOXES=$(/usr/bin/python3 "$LIB/atspi_text.py" "$PLASMA" --until "$1" --where) || { SEEN=$BOXES; return 1; }; }
seen() { cut -f 3 <<<"$SEEN" | head -c 300; }
# head_middle: the middle of the topmost of BOXES (the head line, above the list), "X Y".
head_middle() { local x y w h; read -r x y w h < <(sort -k2,2n <<<"$BOXES" | head -n 1); echo $((x + w / 2)) $((y + h / 2)); }
# inked X Y W H: how much of the box's width, in percent, has ink (text) on it.
inked() {
    import -window root -crop "$3x$4+$1+$2" +repage "$WORK/box.png" 2>/dev/null || { echo 0; return; }
    local box; box=$(convert "$WORK/box.png" -fuzz 25% -format '%@' info: 2>/dev/null)
    echo $(( ${box%%x*} * 100 / $3 ))
}
index_is() { headlines-bar json --changed-from 0 | sed 1d | grep -q "\"index\":$1,"; }
# title_check TITLE: the head line and the list's row both show TITLE.
title_check() {
    if shows "$1" && [ "$(wc -l <<<"$BOXES")" -eq 2 ]; then ok "the head line and the list show the headline as its text: ${1:0:70}"
    else not_ok "the applet shows '$(seen)' (at ${BOXES//$'\n'/, }), not '${1:0:70}' twice"; fi
}
# markup_check: the title on display is all Qt markup but one letter; both labels named so (the
# head line, the list's row) have ink over most of their width, as text that long has (read as
# markup it would be one letter; the accessible name cannot tell: it is the text as given).
markup_check() {
    local title box ink; title=$(shown title)
    shows "$title" || { not_ok "the applet does not show the markup title: $(seen)"; return; }
    xdotool mousemove 1000 700   # no hover highlight on the list
    sleep 0.3
    while read -r box; do
        ink=$(inked $box)
        check "the markup title is drawn as text: ink over $ink% of its label at $box" test "$ink" -ge 50
    done <<<"$BOXES"
}

# Without our programs on PATH, the applet says so.
PATH=/usr/bin:/bin start_applet no-programs
check "without headlines-bar on PATH the applet says so" shows "headlines: headlines-bar is not installed (not on PATH)"
stop_applet

start_applet first
title_check "$(shown title)"
# One process waits for the next document: the applet's headlines-bar, given the name of the
# document it shows (a reload every 2 s makes a new one, so this may take a turn or two).
waits_for_next() {
    local waiting; waiting=$(pgrep -a -P "$PLASMA" -f 'headlines-bar json --changed-from' | sed 's/.*--changed-from //')
    [ "$(wc -l <<<"$waiting")" -eq 1 ] && [ "$waiting" = "$(headlines-bar json --changed-from 0 | head -n 1)" ]
}
check "one headlines-bar waits, for the document after the one shown" wait_for "the applet's headlines-bar" 10 waits_for_next
read -r X Y < <(head_middle)
# A wheel notch down on the head line turns every bar to the next headline, the applet too.
xdotool mousemove "$X" "$Y" click 5
if wait_for "the host to turn to the second headline" 10 index_is 1; then
    check "a wheel notch down on the head line turned the bars to the next headline" true
    title_check "$(shown title)"
    read -r X Y < <(head_middle)
else
    not_ok "a wheel notch on the head line did not turn the bars"
fi
# A left click on the head line opens the headline shown: the second one, by now.
url=$(shown url)
: >"$BROWSER_LOG"
xdotool mousemove "$X" "$Y" click 1
if wait_for "the click to reach the fake browser" 10 test -s "$BROWSER_LOG"; then
    check "a click on the head line opened the headline shown, $url" test "$(cat "$BROWSER_LOG")" = "$url"
else
    not_ok "a click on the head line opened nothing"
fi
xdotool click 4
check "a wheel notch up turned the bars back to the first headline" wait_for "the first headline" 10 index_is 0
# lists_all: every title and "source · age" of the host's document is a node of the applet.
lists_all() {
    local lines=()
    mapfile -t lines < <(headlines-bar json --changed-from 0 | sed 1d \
        | python3 -c 'import json,sys; [print(i["title"] + "\n" + i["source"] + " · " + i["age"]) for i in json.load(sys.stdin)["items"]]')
    SEEN=$(/usr/bin/python3 "$LIB/atspi_text.py" "$PLASMA" --until "${lines[@]}")
}
if lists_all; then ok "the list shows every headline with its source and age"
else not_ok "the list lacks a headline or its source and age: $(seen)"; fi
# A click on the list's last row opens that headline.
last=$(headlines-bar json --changed-from 0 | sed 1d | python3 -c 'import json,sys; i=json.load(sys.stdin)["items"][-1]; print(i["title"]); print(i["url"])')
shows "$(head -n 1 <<<"$last")"
read -r X Y < <(head_middle)
: >"$BROWSER_LOG"
xdotool mousemove "$X" "$Y" click 1
check "a click on the list's last row opened it" wait_for "the browser" 10 bash -c '[ "$(cat "$1")" = "$2" ]' _ "$BROWSER_LOG" "$(tail -n 1 <<<"$last")"
xdotool mousemove 1000 700
sleep 0.3
import -window "$WINDOW" "$SHOTS/plasma.png" 2>/dev/null
[ "${UPDATE_SCREENSHOTS:-0}" = 1 ] && cp "$SHOTS/plasma.png" "$ROOT/packaging/screenshots/plasma.png"
check "a screenshot in build/screenshots/plasma.png" test -s "$SHOTS/plasma.png"

# Two hostile titles: Qt's markup, commands for a shell and 100 KB; and all markup but one letter.
PWNED=$WORK/pwned
HOSTILE="<b>x</b> & <i> \$(touch $PWNED) \`touch $PWNED\` $(python3 -c 'print(("Long " * 20480).strip())')"
MARKUP="<b></b><i></i><u></u><s></s><b></b><i></i><u></u><s></s><b></b><i></i><u></u><s></s>x"
python3 "$LIB/articles.py" "$ARTICLES" 3 "$HOSTILE" "$MARKUP"
hostile_shown() { [[ "$(shown title)" == "<b>x</b> & <i> \$(touch"* ]]; }
wait_for "the host to show the hostile headline" 15 hostile_shown || die "the host never showed the hostile headline"
title_check "$(shown title)"
# A click on it opens its link, and runs nothing else.
read -r X Y < <(head_middle)
: >"$BROWSER_LOG"
xdotool mousemove "$X" "$Y" click 1
check "a click on the hostile headline opened its link" wait_for "the browser" 10 bash -c '[ "$(cat "$1")" = "$2" ]' _ "$BROWSER_LOG" "$(shown url)"
headlines next >/dev/null
markup_check
check "no title ran a command (no $PWNED)" test ! -e "$PWNED"
stop_applet
echo "plasma: $failed failed"
[ "$failed" -eq 0 ]
