#!/usr/bin/env python3
"""What a resident process costs, read from /proc, for the issue 14 bench (RUNTIME-COSTS.md's
definitions). A process is measured with its descendants (a shell loop's `sleep`, a host's
fetch child): wake-ups are voluntary + nonvoluntary context switches summed over every thread of
the tree; VmHWM is the named process's own peak RSS; Pss and private memory are the tree's sums
(smaps_rollup).

  proc.py window SECONDS NAME=PID ...    idles SECONDS, reading every tree's threads every 2 s,
                                          then prints `idle.NAME.* value unit` lines: wake-ups a
                                          minute over the window (and by thread name), VmHWM, VmRSS
                                          at the end, Pss, private, threads
  proc.py threads PREFIX PID              PREFIX.threads COUNT and PREFIX.thread_names a,b,c

Reading /proc does not wake the process read. A thread's wake-ups are its last count seen minus
its count at the start (0 when born inside the window), so a thread that ends inside the window
(libdispatch retires idle workers) still counts up to its last reading; only one born and gone
between two readings is missed."""
import os, sys, time


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


def window(seconds, pairs, every=2.0):
    """({name: {"pid/tid": [count at start, last count seen, thread name]}}, seconds elapsed)."""
    seen = {name: {} for name, _ in pairs}
    def read(first):
        kids = children()
        for name, pid in pairs:
            for p in tree(pid, kids):
                for key, count in switches(p).items():
                    entry = seen[name].get(key)
                    if entry is None:
                        seen[name][key] = entry = [count if first else 0, count, comm(key)]
                    entry[1] = count
    start = time.monotonic()
    end = start + seconds
    read(True)
    while time.monotonic() < end:
        time.sleep(min(every, max(0.0, end - time.monotonic())))
        read(False)
    return seen, time.monotonic() - start


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


def report(seen, seconds, pairs):
    kids = children()
    for name, pid in pairs:
        if not os.path.exists(f"/proc/{pid}"):
            print(f"idle.{name}.died 1 flag")
            continue
        woke, by_thread = 0, {}
        for start, last, thread in seen[name].values():
            if last > start:
                woke += last - start
                by_thread[thread] = by_thread.get(thread, 0) + last - start
        print(f"idle.{name}.wakeups_per_min {woke * 60 / seconds:.1f} per-minute")
        print(f"idle.{name}.wakeups {woke} count")
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
    if cmd == "window":
        pairs = named(sys.argv[3:])
        seen, elapsed = window(float(sys.argv[2]), pairs)
        # A loaded machine oversleeps: the rates are over the time that really passed.
        print(f"idle.elapsed {elapsed:.0f} s")
        report(seen, elapsed, pairs)
    elif cmd == "threads":
        threads(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(f"proc.py: unknown command {cmd}")
