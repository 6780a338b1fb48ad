#!/usr/bin/env python3
"""check_layers: the structural rules of modelcat's sources (make check-layers).

    tools/check_layers.py [--root DIR]

Checks, under DIR (default: the checkout this script is in):
  1. every #include "..." in src/lib/LAYER/ names a header of LAYER or of a
     layer LAYER builds on (src/lib/LAYERS); every header named exists;
  2. no cycle: not among the declared layers, not among modules (a module
     is NAME.c with NAME.h; a module including another's header depends on
     it);
  3. no getopt_long under src/stages (options are declared as tables,
     src/lib/cli/options.h);
  4. no SQL keyword inside a string literal outside the db layer
     (src/lib/db/) and sql/;
  5. no SQLite name (sqlite3_..., a call or a type) outside the db layer:
     the catalogue is reached through db's functions and types alone;
  6. no stage program (src/stages/*.c) over 200 lines;
  7. no function anywhere in src/ over 100 lines (a function's body runs
     from a '{' alone at the start of a line to the next '}' alone there).
Prints one line per rule with its count, then each violation as
FILE:LINE: what; exits 1 when any rule is broken, 0 otherwise.
"""
import argparse
import os
import re
import sys

STAGE_MAX_LINES = 200
FUNCTION_MAX_LINES = 100
SQL_WORDS = re.compile(r'\b(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|'
                       r'BEGIN|COMMIT|ROLLBACK|SAVEPOINT|ATTACH|VACUUM|'
                       r'VALUES|FROM|WHERE)\b')
SQLITE_NAME = re.compile(r'\bsqlite3_\w*')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def read_layers(path):
    """{layer: set of layers it builds on}, in file order."""
    layers = {}
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            if ':' not in line:
                sys.exit('%s:%d: expected "LAYER: LAYER..."' % (path, number))
            name, deps = line.split(':', 1)
            layers[name.strip()] = set(deps.split())
    return layers


def find_cycle(graph):
    """A list of nodes forming a cycle in graph {node: set}, or None."""
    state = {}
    stack = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def strip_comments(text):
    """text with comments blanked (newlines kept) and a list of
    (line, literal) for every string literal."""
    out = []
    literals = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            chunk = text[i:j]
            line += chunk.count('\n')
            out.append(re.sub(r'[^\n]', ' ', chunk))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            chunk = text[i:j]
            if c == '"':
                literals.append((line, chunk[1:-1]))
            line += chunk.count('\n')
            out.append(chunk)
            i = j
        else:
            if c == '\n':
                line += 1
            out.append(c)
            i += 1
    return ''.join(out), literals


def source_files(root, top):
    for folder, dirs, files in os.walk(os.path.join(root, top)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(('.c', '.h')):
                yield os.path.join(folder, name)


def functions(text):
    """(first line, line count, header) of each function body."""
    lines = text.split('\n')
    start = None
    for i, line in enumerate(lines):
        if line == '{':
            start = i
        elif line == '}' and start is not None:
            first = start - 1
            while first > 0 and lines[first][:1] in (' ', '\t'):
                first -= 1
            header = lines[first].strip() if start else ''
            yield start + 1, i - start + 1, header
            start = None


def check(root):
    lib = os.path.join(root, 'src', 'lib')
    layers = read_layers(os.path.join(lib, 'LAYERS'))
    problems = {key: [] for key in ('includes', 'cycles', 'getopt', 'sql', 'sqlite',
                                    'stages', 'functions')}
    longest = {'stages': ('', 0), 'functions': ('', 0)}
    modules = {}
    for layer, deps in layers.items():
        for dep in deps:
            if dep not in layers:
                problems['includes'].append('src/lib/LAYERS: %s builds on unknown layer %s'
                                            % (layer, dep))
    cycle = find_cycle(layers)
    if cycle:
        problems['cycles'].append('src/lib/LAYERS: layers ' + ' -> '.join(cycle))

    for path in source_files(root, 'src'):
        rel = os.path.relpath(path, root)
        with open(path, encoding='utf-8') as f:
            raw = f.read()
        code, literals = strip_comments(raw)
        parts = rel.split(os.sep)
        layer = parts[2] if parts[:2] == ['src', 'lib'] and len(parts) == 4 else None
        if parts[:2] == ['src', 'lib'] and len(parts) != 4:
            problems['includes'].append('%s: not in a layer folder' % rel)
        module = os.path.splitext(rel)[0]
        modules.setdefault(module, set())
        for m in INCLUDE.finditer(code):
            header = m.group(1)
            line = code.count('\n', 0, m.start()) + 1
            where = '%s:%d' % (rel, line)
            target = os.path.join(lib, header)
            local = os.path.join(os.path.dirname(path), header)
            if '/' not in header and os.path.exists(local) and not rel.startswith('src/lib'):
                continue
            if not os.path.exists(target):
                problems['includes'].append('%s: includes "%s", no such header under src/lib'
                                            % (where, header))
                continue
            to_layer = header.split('/')[0]
            if to_layer not in layers:
                problems['includes'].append('%s: includes "%s" from outside the layers'
                                            % (where, header))
                continue
            if layer and to_layer != layer and to_layer not in layers.get(layer, ()):
                problems['includes'].append('%s: %s includes "%s"; %s builds on %s'
                                            % (where, layer, header, layer,
                                               ' '.join(sorted(layers[layer])) or 'nothing'))
            dep = os.path.join('src', 'lib', os.path.splitext(header)[0])
            if dep != module:
                modules[module].add(dep)
        if rel.startswith('src/stages/'):
            for m in re.finditer(r'\bgetopt_long\b', code):
                problems['getopt'].append('%s:%d: getopt_long'
                                          % (rel, code.count('\n', 0, m.start()) + 1))
            count = raw.count('\n')
            if count > longest['stages'][1]:
                longest['stages'] = (rel, count)
            if count > STAGE_MAX_LINES:
                problems['stages'].append('%s: %d lines (at most %d)'
                                          % (rel, count, STAGE_MAX_LINES))
        if layer != 'db':
            for m in SQLITE_NAME.finditer(code):
                problems['sqlite'].append('%s:%d: %s outside the db layer'
                                          % (rel, code.count('\n', 0, m.start()) + 1,
                                             m.group(0)))
            for line, literal in literals:
                m = SQL_WORDS.search(literal)
                if m:
                    problems['sql'].append('%s:%d: SQL (%s) in "%s"'
                                           % (rel, line, m.group(1), literal[:60]))
        for first, count, header in functions(raw):
            if count > longest['functions'][1]:
                longest['functions'] = ('%s:%d' % (rel, first), count)
            if count > FUNCTION_MAX_LINES:
                problems['functions'].append('%s:%d: %s: %d lines (at most %d)'
                                             % (rel, first, header, count, FUNCTION_MAX_LINES))
    cycle = find_cycle(modules)
    if cycle:
        problems['cycles'].append('modules ' + ' -> '.join(cycle))
    return problems, longest


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description='Check the layers and sizes of the sources.')
    ap.add_argument('--root', default=os.path.dirname(here),
                    help='the checkout to check (default: this one)')
    args = ap.parse_args()
    problems, longest = check(args.root)
    titles = [
        ('includes', 'includes outside the declared layers'),
        ('cycles', 'include cycles'),
        ('getopt', 'getopt_long calls under src/stages'),
        ('sql', 'SQL keywords in string literals outside the db layer'),
        ('sqlite', 'SQLite names (sqlite3_) outside the db layer'),
        ('stages', 'stage programs over %d lines (longest: %s, %d)'
         % ((STAGE_MAX_LINES,) + longest['stages'])),
        ('functions', 'functions over %d lines (longest: %s, %d)'
         % ((FUNCTION_MAX_LINES,) + longest['functions'])),
    ]
    for key, title in titles:
        print('check-layers: %d %s' % (len(problems[key]), title))
    failed = False
    for key, _ in titles:
        for problem in problems[key]:
            print('  ' + problem)
            failed = True
    print('check-layers: %s' % ('FAILED' if failed else 'ok'))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
