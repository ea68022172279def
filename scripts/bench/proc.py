#!/usr/bin/env python3
"""What a resident process costs, read from /proc, for the issue 14 bench (RUNTIME-COSTS.md's
definitions). A process is measured with its descendants (a shell loop's `sleep`, a host's
fetch child): wake-ups are voluntary + nonvoluntary context switches summed over every thread of
the tree; VmHWM is the named process's own peak RSS; Pss and private memory are the tree's sums
(smaps_rollup).

  proc.py snap FILE NAME=PID ...         per-thread switch counts of each tree, as JSON
  proc.py report BEFORE AFTER SECONDS NAME=PID ...
                                          `idle.NAME.* value unit` lines: wake-ups a minute over
                                          the window (and by thread name), VmHWM, VmRSS at the
                                          end, Pss, private, threads
  proc.py threads PREFIX PID              PREFIX.threads COUNT and PREFIX.thread_names a,b,c

Threads born inside the window count whole; threads that ended inside it are missed (they ran
during a reload, not while idle)."""
import json, os, sys


def children():
    kids = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        kids.setdefault(ppid, []).append(int(entry))
    return kids


def tree(pid, kids):
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def status_field(path, field):
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def switches(pid):
    """{"pid/tid": voluntary + nonvoluntary} for every thread of pid."""
    counts = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return counts
    for tid in tids:
        path = f"/proc/{pid}/task/{tid}/status"
        v = status_field(path, "voluntary_ctxt_switches")
        n = status_field(path, "nonvoluntary_ctxt_switches")
        if v is not None and n is not None:
            counts[f"{pid}/{tid}"] = v + n
    return counts


def comm(key):
    """The thread name of a "pid/tid" key, or the tid when the thread is gone."""
    pid, tid = key.split("/")
    try:
        with open(f"/proc/{pid}/task/{tid}/comm") as f:
            return f.read().strip().replace(" ", "_").replace(",", "_").replace(":", "_") or tid
    except OSError:
        return tid


def named(args):
    return [(a.split("=", 1)[0], int(a.split("=", 1)[1])) for a in args]


def snap(path, pairs):
    kids = children()
    data = {}
    for name, pid in pairs:
        counts = {}
        for p in tree(pid, kids):
            counts.update(switches(p))
        data[name] = counts
    with open(path, "w") as f:
        json.dump(data, f)


def rollup(pid):
    fields = {}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 2 and parts[0].endswith(":") and parts[1].isdigit():
                    fields[parts[0][:-1]] = int(parts[1])
    except OSError:
        pass
    return fields


def report(before_path, after_path, seconds, pairs):
    before, after = json.load(open(before_path)), json.load(open(after_path))
    kids = children()
    for name, pid in pairs:
        b, a = before.get(name, {}), after.get(name, {})
        if not os.path.exists(f"/proc/{pid}"):
            print(f"idle.{name}.died 1 flag")
            continue
        woke = sum(count - b.get(tid, 0) for tid, count in a.items())
        print(f"idle.{name}.wakeups_per_min {woke * 60 / seconds:.1f} per-minute")
        print(f"idle.{name}.wakeups {woke} count")
        by_thread = {}
        for tid, count in a.items():
            if count - b.get(tid, 0) > 0:
                key = comm(tid)
                by_thread[key] = by_thread.get(key, 0) + count - b.get(tid, 0)
        spread = ",".join(f"{k}:{n}" for k, n in sorted(by_thread.items(), key=lambda kv: -kv[1]))
        print(f"idle.{name}.wakeups_by_thread {spread or '-'} names")
        print(f"idle.{name}.peak_rss_kb {status_field(f'/proc/{pid}/status', 'VmHWM')} kB")
        print(f"idle.{name}.rss_kb {status_field(f'/proc/{pid}/status', 'VmRSS')} kB")
        pss = private = 0
        for p in tree(pid, kids):
            r = rollup(p)
            pss += r.get("Pss", 0)
            private += r.get("Private_Clean", 0) + r.get("Private_Dirty", 0)
        print(f"idle.{name}.pss_kb {pss} kB")
        print(f"idle.{name}.private_kb {private} kB")
        print(f"idle.{name}.threads {len(os.listdir(f'/proc/{pid}/task'))} count")


def threads(prefix, pid):
    names = []
    for tid in sorted(os.listdir(f"/proc/{pid}/task"), key=int):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                names.append(f.read().strip().replace(" ", "_").replace(",", "_") or "?")
        except OSError:
            pass
    print(f"{prefix}.threads {len(names)} count")
    print(f"{prefix}.thread_names {','.join(names)} names")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "snap":
        snap(sys.argv[2], named(sys.argv[3:]))
    elif cmd == "report":
        report(sys.argv[2], sys.argv[3], float(sys.argv[4]), named(sys.argv[5:]))
    elif cmd == "threads":
        threads(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(f"proc.py: unknown command {cmd}")
