#!/usr/bin/env python3
"""Reads a dbus-monitor log and prints the Notify calls in it as JSON lines:
{"app_name", "summary", "body", "actions": [...], "hints": {name: value}, "expire_timeout"}.

dbus-monitor prints each argument on its own line; strings are in double quotes and may span
lines (a body with a newline), so arguments are read as a small token stream."""
import json, re, sys

def calls(text):
    blocks = re.split(r"^(?=method call|method return|signal|error)", text, flags=re.M)
    for block in blocks:
        if not block.startswith("method call") or "member=Notify" not in block.splitlines()[0]:
            continue
        body = block.split("\n", 1)[1] if "\n" in block else ""
        # Tokens: quoted strings (multi-line, non-greedy up to a quote at end of line), words.
        tokens = re.findall(r'string "(.*?)"\n|(uint32|int32|byte|boolean) (\S+)|(array \[|\]|dict entry\(|\)|variant)', body + "\n", flags=re.S)
        args, stack = [], [[]]
        for s, numtype, num, punct in tokens:
            if punct in ("array [", "dict entry("):
                stack.append([])
            elif punct in ("]", ")"):
                inner = stack.pop()
                stack[-1].append(inner)
            elif punct == "variant":
                continue
            elif numtype:
                stack[-1].append(num)
            else:
                stack[-1].append(s)
        args = stack[0]
        if len(args) < 8:
            continue
        hints = {}
        for entry in args[6]:
            if isinstance(entry, list) and len(entry) >= 2:
                hints[entry[0]] = entry[1]
        yield {"app_name": args[0], "replaces_id": int(args[1]), "icon": args[2], "summary": args[3], "body": args[4],
               "actions": args[5], "hints": hints, "expire_timeout": int(args[7])}

for call in calls(open(sys.argv[1], errors="replace").read()):
    print(json.dumps(call, ensure_ascii=False))
