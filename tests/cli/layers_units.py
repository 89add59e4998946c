#!/usr/bin/env python3
"""The units of src/ and the circles between them (tests/cli/layers.sh).

A unit is x.c with its x.h; a file that includes a private x_impl.h is a
part of x (out_csv.c of core/out). Unit A uses unit B when a file of A
includes a header of B, or, where the objects are built, when A's object
uses a symbol B's object defines (nm). A circle is a set of units that
use each other round (a strongly connected component of two or more).

    layers_units.py SRC_DIR   -> one line per circle:
    "circle: a b c | a -> b (include b.h); b -> a (calls f)"
"""
import glob
import os
import re
import subprocess
import sys


def unit_of(rel):
    base = rel[:-2] if rel.endswith(('.c', '.h')) else rel
    return base[:-5] if base.endswith('_impl') else base


def main(src):
    files = sorted(glob.glob(os.path.join(src, '*.[ch]')) + glob.glob(os.path.join(src, '*', '*.[ch]')))
    unit, incs = {}, {}
    for f in files:
        rel = os.path.relpath(f, src)
        incs[rel] = re.findall(r'^\s*#\s*include\s*["<]([^">]+)[">]', open(f, errors='replace').read(), re.M)
        unit[rel] = unit_of(rel)
        for i in incs[rel]:
            if i.endswith('_impl.h'):
                unit[rel] = unit_of(i)	# a part of the unit whose private header it reads
    edges = {}

    def use(a, b, why):
        if a != b:
            edges.setdefault(a, {}).setdefault(b, why)

    for rel, lst in incs.items():
        for i in lst:
            use(unit[rel], unit.get(i, unit_of(i)), 'include ' + i)
    defined, used = {}, {}
    for rel in unit:
        obj = os.path.join(src, rel[:-2] + '.o')
        if not rel.endswith('.c') or not os.path.exists(obj):
            continue
        nm = subprocess.run(['nm', obj], capture_output=True, text=True).stdout
        for line in nm.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in 'TDRBCG':
                defined[p[2]] = unit[rel]
            elif len(p) == 2 and p[0] == 'U':
                used.setdefault(unit[rel], set()).add(p[1])
    for u, syms in used.items():
        for s in sorted(syms):
            if s in defined:
                use(u, defined[s], 'calls ' + s)
    # Tarjan's strongly connected components, iteratively.
    index, low, on, stack, comps, n = {}, {}, set(), [], [], 0
    nodes = sorted(set(edges) | {b for a in edges for b in edges[a]})
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, {}))))]
        index[root] = low[root] = n; n += 1; stack.append(root); on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n; n += 1; stack.append(w); on.add(w)
                    work.append((w, iter(sorted(edges.get(w, {})))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
    for comp in sorted(comps):
        why = ['%s -> %s (%s)' % (a, b, edges[a][b]) for a in comp for b in sorted(edges.get(a, {})) if b in comp]
        print('circle: %s | %s' % (' '.join(comp), '; '.join(why)))


if __name__ == '__main__':
    main(sys.argv[1])
