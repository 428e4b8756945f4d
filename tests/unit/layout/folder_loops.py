#!/usr/bin/env python3
"""No loops between the source tree's top-level folders: an #include "X/..." in
folder A is an edge A -> the folder that holds X/ (common/X, or top-level X).
Fails naming a cycle.  folder_loops.py ROOT"""
import os
import re
import sys

root = sys.argv[1]
FOLDERS = ["common", "shm", "job", "gpu-server", "synth-worker", "client"]
include = re.compile(r'^\s*#\s*include\s+"([^"/]+)/')


def owner(first):
    """the top-level folder an include path's first component lives in"""
    if first in FOLDERS and os.path.isdir(os.path.join(root, first)):
        return first
    if os.path.isdir(os.path.join(root, "common", first)):
        return "common"
    return None


edges = {f: set() for f in FOLDERS}
why = {}
for f in FOLDERS:
    for dirpath, _, files in os.walk(os.path.join(root, f)):
        for name in files:
            if not name.endswith((".hpp", ".cpp", ".cuh", ".cu", ".in")):
                continue
            path = os.path.join(dirpath, name)
            for line in open(path, errors="replace"):
                m = include.match(line)
                to = m and owner(m[1])
                if to and to != f and to not in edges[f]:
                    edges[f].add(to)
                    why[(f, to)] = os.path.relpath(path, root) + ": " + line.strip()


def cycle():
    state = {}
    stack = []

    def visit(v):
        state[v] = 1
        stack.append(v)
        for w in sorted(edges[v]):
            if state.get(w) == 1:
                return stack[stack.index(w):] + [w]
            if w not in state:
                found = visit(w)
                if found:
                    return found
        stack.pop()
        state[v] = 2
        return None

    for v in FOLDERS:
        if v not in state:
            found = visit(v)
            if found:
                return found
    return None


c = cycle()
for f in FOLDERS:
    print(f"{f} -> {', '.join(sorted(edges[f])) or '(nothing)'}")
if c:
    print("FAIL: a loop between folders: " + " -> ".join(c))
    for a, b in zip(c, c[1:]):
        print(f"  {a} -> {b}: {why[(a, b)]}")
    sys.exit(1)
print("no loops between folders")
