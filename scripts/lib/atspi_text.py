#!/usr/bin/python3
"""What an application shows, read through AT-SPI (the accessibility bus of the session):

  atspi_text.py PID                       prints "ROLE<TAB>X,Y WxH<TAB>NAME" for every named
                                          node of the application whose process is PID (its
                                          place on the screen)
  atspi_text.py PID --until TEXT... [--timeout S]   waits (default 10 s) until, for each TEXT
                                          given, a node is named exactly TEXT; exit 0 then, else
                                          1 after printing the nodes seen last; with --where,
                                          prints "X Y W H", the box of each node named the first
                                          TEXT on the screen

Needs Debian's python3-gi and gir1.2-atspi-2.0, hence /usr/bin/python3. Qt programs take part
when QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1. Names are printed with their newlines as \\n, so each
node is one line. A name is what the program says the node holds: for a Qt Quick Text, its text
property as given, whatever textFormat makes of it on the screen."""
import argparse, time
import gi
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi

parser = argparse.ArgumentParser()
parser.add_argument("pid", type=int)
parser.add_argument("--until", nargs="+")
parser.add_argument("--timeout", type=float, default=10)
parser.add_argument("--where", action="store_true")
args = parser.parse_args()


def nodes():
    found = []

    def walk(node, depth):
        try:
            name, role = node.get_name(), node.get_role_name()
            count = node.get_child_count()
        except Exception:  # a node that went away while it was read
            return
        if name:
            try:
                box = node.get_extents(Atspi.CoordType.SCREEN)
            except Exception:
                box = None
            found.append((role, name, box))
        for i in range(min(count, 500)):
            child = node.get_child_at_index(i)
            if child is not None and depth < 60:
                walk(child, depth + 1)

    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        try:
            if app is not None and app.get_process_id() == args.pid:
                walk(app, 0)
        except Exception:
            pass
    return found


def show(found):
    for role, name, box in found:
        where = f"{box.x},{box.y} {box.width}x{box.height}" if box else "?"
        print(f"{role}\t{where}\t{name.replace(chr(10), chr(92) + 'n')}")


if args.until is None:
    show(nodes())
    raise SystemExit(0)
deadline = time.monotonic() + args.timeout
while True:
    found = nodes()
    names = {name for _, name, _ in found}
    if all(text in names for text in args.until):
        boxes = [box for _, name, box in found if name == args.until[0]]
        for box in boxes if args.where else []:
            print(box.x, box.y, box.width, box.height) if box else print("?")
        raise SystemExit(0)
    if time.monotonic() > deadline:
        show(found)
        raise SystemExit(1)
    time.sleep(0.1)
