#!/usr/bin/env python3
"""No loops between the source tree's folders, at two levels: the top-level
folders (an #include "X/..." in folder A is an edge A -> the folder that holds
X/: common/X, or top-level X) and common/'s areas (A -> X for common/X).
Fails naming a cycle.  folder_loops.py ROOT"""
import os
import re
import sys

root = sys.argv[1]
TOP = ["common", "shm", "job", "gpu-server", "synth-worker", "client"]
AREAS = sorted(d for d in os.listdir(os.path.join(root, "common")) if os.path.isdir(os.path.join(root, "common", d)))
include = re.compile(r'^\s*#\s*include\s+"([^"/]+)/')
SOURCES = (".hpp", ".cpp", ".cuh", ".cu", ".in")


def top_of(first):
    """the top-level folder an include path's first component lives in"""
    if first in TOP and os.path.isdir(os.path.join(root, first)):
        return first
    return "common" if first in AREAS else None


def graph(nodes, folder_of, target_of):
    edges, why = {v: set() for v in nodes}, {}
    for v in nodes:
        for dirpath, _, files in os.walk(os.path.join(root, folder_of(v))):
            for name in files:
                if not name.endswith(SOURCES):
                    continue
                path = os.path.join(dirpath, name)
                for line in open(path, errors="replace"):
                    m = include.match(line)
                    to = m and target_of(m[1])
                    if to and to != v and to not in edges[v]:
                        edges[v].add(to)
                        why[(v, to)] = os.path.relpath(path, root) + ": " + line.strip()
    return edges, why


def cycle(nodes, edges):
    state, stack = {}, []

    def visit(v):
        state[v] = 1
        stack.append(v)
        for w in sorted(edges[v]):
            if state.get(w) == 1:
                return stack[stack.index(w):] + [w]
            if w not in state and (found := visit(w)):
                return found
        stack.pop()
        state[v] = 2
        return None

    for v in nodes:
        if v not in state and (found := visit(v)):
            return found
    return None


failed = False
for level, nodes, folder_of, target_of in [
        ("top-level folders", TOP, lambda v: v, top_of),
        ("areas of common/", AREAS, lambda v: os.path.join("common", v), lambda x: x if x in AREAS else None)]:
    edges, why = graph(nodes, folder_of, target_of)
    print(f"{level}:")
    for v in nodes:
        print(f"  {v} -> {', '.join(sorted(edges[v])) or '(nothing)'}")
    if c := cycle(nodes, edges):
        failed = True
        print(f"FAIL: a loop between {level}: " + " -> ".join(c))
        for a, b in zip(c, c[1:]):
            print(f"  {a} -> {b}: {why[(a, b)]}")
sys.exit(1 if failed else 0)
