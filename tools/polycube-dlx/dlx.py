#!/usr/bin/env python3
"""A plain exact-cover solver for polycube levels, separate from the
engine's: the yardstick the difficulty estimate is compared with
(docs/perf/polycube-generate.md, "The difficulty").

Knuth's Algorithm X on sets: one column per box cell and one per piece
(identical pieces are separate pieces, as a plain solver sees them), one
row per placement of a piece (each distinct turn, each position). At each
node it branches on the column with the fewest rows (ties: the lowest
column, cells before pieces). No symmetry breaking, no pruning.

    python3 dlx.py LEVEL.ron [LEVEL.ron ...]
    python3 dlx.py --rows LEVEL.ron | ./dlx     (dlx.c: the same search in C)

prints, per level, one JSON line: the nodes to exhaust the search (every
packing, every rotation of it), the packings found, and the nodes to the
first packing under each of ORDERS seeded row orders and their mean.
A node is a partial packing visited (the root included).
"""

import json
import random
import re
import sys

ORDERS = 8
sys.setrecursionlimit(10_000)


def read_level(path):
    text = open(path, encoding="utf-8").read()
    size = tuple(int(v) for v in re.search(r"size:\s*\((\d+),\s*(\d+),\s*(\d+)\)", text).groups())
    pieces = []
    for cells in re.findall(r"cells:\s*\[([^\]]*)\]", text):
        pieces.append([tuple(int(v) - 1 for v in c) for c in re.findall(r"\((-?\d+),\s*(-?\d+),\s*(-?\d+)\)", cells)])
    return size, pieces


def normalise(cells):
    low = [min(c[k] for c in cells) for k in range(3)]
    return tuple(sorted(tuple(c[k] - low[k] for k in range(3)) for c in cells))


def turns(cells):
    """The piece's distinct orientations (24 proper rotations)."""
    def rx(c):
        return (c[0], -c[2], c[1])

    def ry(c):
        return (c[2], c[1], -c[0])

    def rz(c):
        return (-c[1], c[0], c[2])

    seen = set()
    frontier = [normalise(cells)]
    while frontier:
        shape = frontier.pop()
        if shape in seen:
            continue
        seen.add(shape)
        for r in (rx, ry, rz):
            frontier.append(normalise([r(c) for c in shape]))
    return sorted(seen)


def rows_of(size, pieces):
    a, b, c = size
    index = lambda x, y, z: x + a * (y + b * z)
    volume = a * b * c
    rows = []
    for p, cells in enumerate(pieces):
        for shape in turns(cells):
            far = [max(s[k] for s in shape) for k in range(3)]
            for dz in range(c - far[2]):
                for dy in range(b - far[1]):
                    for dx in range(a - far[0]):
                        cols = [index(x + dx, y + dy, z + dz) for x, y, z in shape]
                        rows.append(tuple(sorted(cols)) + (volume + p,))
    return rows, volume + len(pieces)


class Search:
    def __init__(self, rows, columns, rank, first_only):
        self.rows = rows
        self.rank = rank
        self.first_only = first_only
        self.x = {j: set() for j in range(columns)}
        for i, row in enumerate(rows):
            for j in row:
                self.x[j].add(i)
        self.nodes = 0
        self.packings = 0

    def go(self):
        self.nodes += 1
        if not self.x:
            self.packings += 1
            return self.first_only
        col = min(self.x, key=lambda j: (len(self.x[j]), j))
        for r in sorted(self.x[col], key=self.rank):
            removed = self.select(r)
            if self.go():
                return True
            self.deselect(r, removed)
        return False

    def select(self, r):
        removed = []
        for j in self.rows[r]:
            for i in self.x[j]:
                for k in self.rows[i]:
                    if k != j:
                        self.x[k].discard(i)
            removed.append(self.x.pop(j))
        return removed

    def deselect(self, r, removed):
        for j in reversed(self.rows[r]):
            self.x[j] = removed.pop()
            for i in self.x[j]:
                for k in self.rows[i]:
                    if k != j:
                        self.x[k].add(i)


def measure(path):
    size, pieces = read_level(path)
    rows, columns = rows_of(size, pieces)
    whole = Search(rows, columns, lambda i: i, False)
    whole.go()
    firsts = []
    for seed in range(1, ORDERS + 1):
        order = list(range(len(rows)))
        random.Random(seed).shuffle(order)
        rank = {row: k for k, row in enumerate(order)}
        first = Search(rows, columns, rank.__getitem__, True)
        first.go()
        firsts.append(first.nodes)
    return {
        "level": path,
        "rows": len(rows),
        "exhaust_nodes": whole.nodes,
        "packings": whole.packings,
        "first_nodes": firsts,
        "first_mean": sum(firsts) / len(firsts),
    }


def print_rows(path):
    """The exact-cover matrix of a level, as dlx.c reads it."""
    size, pieces = read_level(path)
    rows, columns = rows_of(size, pieces)
    print(columns, len(rows))
    for row in rows:
        print(len(row), *row)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--rows"]:
        print_rows(sys.argv[2])
    else:
        for path in sys.argv[1:]:
            print(json.dumps(measure(path)), flush=True)
