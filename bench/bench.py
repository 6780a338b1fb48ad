#!/usr/bin/env python3
"""modelcat benchmarks, side by side with sqlite3's own .import.

Scales a bundled real export (all_ai_models) to >= 100 MB with unique
names (1 GB with BENCH_BIG=1), then times, in rounds that alternate the
commands:

  cat              reading the file (the floor)
  sqlite3 .import  sqlite3's CSV import of the same file (the reference)
  parse            modelcat-parse alone: read, map, normalise
  ingest first     ingest into an empty catalogue
  ingest same      ingest of the same content again (no change)
  ingest 1%        ingest of a copy with 1 % of rows changed
  render --all     every page (when modelcat-render exists; not with
                   BENCH_BIG=1, where it would take about ten minutes a round)

and prints medians, MB/s, rows/s, peak RSS and each figure as a ratio to
the .import of the same run. With --write FILE the table goes into FILE
(docs/performance.md) with a description of the machine.

With --peer BIN_DIR the modelcat steps also run with the programs of
another build (e.g. of the commit before a change) in the same rounds, and
a last column gives each step's median as a ratio to the peer's.

usage: bench.py [--rounds N] [--write FILE] [--peer BIN_DIR]
environment: BENCH_BIG=1 (1 GB), BENCH_DIR (work folder, default a temp dir)
"""
import argparse, os, platform, shutil, statistics, subprocess, sys, tempfile, time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(TOP, 'bin')
SOURCE = os.path.join(TOP, 'snapshots', 'all_ai_models', '2025-04-23.csv.gz')
SCALE = os.path.join(TOP, 'tests', 'e2e', 'scale_export.py')


TIME = '/usr/bin/time' if os.path.exists('/usr/bin/time') else None


def run(argv, stdin=None, env=None):
    """Run argv; return (seconds, peak RSS in KiB or None, exit status).

    The peak RSS comes from /usr/bin/time (package `time`): a child forked
    by Python would count Python's own pages before its exec."""
    rss_file = None
    if TIME:
        fd, rss_file = tempfile.mkstemp(prefix='modelcat-rss.')
        os.close(fd)
        argv = [TIME, '-f', '%M', '-o', rss_file] + argv
    start = time.perf_counter()
    status = subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env).returncode
    seconds = time.perf_counter() - start
    rss = None
    if rss_file:
        try:
            rss = int(open(rss_file).read().split()[-1])
        except (ValueError, IndexError, OSError):
            pass
        os.remove(rss_file)
    return seconds, rss, status


def machine():
    cpu = ''
    try:
        for line in open('/proc/cpuinfo'):
            if line.startswith('model name'):
                cpu = line.split(':', 1)[1].strip()
                break
    except OSError:
        pass
    mem = ''
    try:
        for line in open('/proc/meminfo'):
            if line.startswith('MemTotal'):
                mem = '%.0f GiB' % (int(line.split()[1]) / 1024 / 1024)
    except OSError:
        pass
    sqlite = subprocess.run(['sqlite3', '--version'], capture_output=True, text=True).stdout.split()[0]
    return '%s, %d cores, %s memory, %s, sqlite3 %s' % (
        cpu or platform.processor(), os.cpu_count(), mem, platform.platform(), sqlite)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--write')
    ap.add_argument('--peer', metavar='BIN_DIR',
                    help='also time the programs in BIN_DIR (another build, e.g. of an '
                         'earlier commit) in the same rounds; rows marked [peer]')
    args = ap.parse_args()
    big = os.environ.get('BENCH_BIG') == '1'
    copies = 250 if big else 30
    work = os.environ.get('BENCH_DIR') or tempfile.mkdtemp(prefix='modelcat-bench.')
    os.makedirs(work, exist_ok=True)
    data = os.path.join(work, 'all_ai_models.csv')
    changed = os.path.join(work, 'changed', 'all_ai_models.csv')
    os.makedirs(os.path.dirname(changed), exist_ok=True)
    if not os.path.exists(data):
        subprocess.run([sys.executable, SCALE, SOURCE, str(copies), data], check=True)
    if not os.path.exists(changed):
        subprocess.run([sys.executable, SCALE, SOURCE, str(copies), changed, '1'], check=True)
    size = os.path.getsize(data)
    with open(data, 'rb') as f:
        rows = sum(1 for _ in f)  # lines: rows plus embedded newlines; see below
    # data rows, as the CSV reader counts them
    out = subprocess.run([os.path.join(BIN, 'modelcat-parse'), 'all_ai_models=' + data],
                         capture_output=True, text=True).stdout
    rows = int(out.split(':', 1)[1].split()[0]) if ':' in out else rows
    mb = size / 1e6
    print('# %s: %.1f MB, %d rows, %d rounds' % (data, mb, rows, args.rounds))

    env = dict(os.environ)
    imp = os.path.join(work, 'import.db')

    def rm(*paths):
        for p in paths:
            for side in ('', '-journal', '-wal', '-shm'):
                if os.path.exists(p + side):
                    os.remove(p + side)

    def t_cat():
        with open(data, 'rb') as f:
            return run(['cat'], stdin=f)

    def t_import():
        rm(imp)
        return run(['sqlite3', imp, '.import --csv %s t' % data])

    def modelcat_tasks(bindir, tag):
        """The modelcat steps run with the programs of bindir; tag ('' or
        ' [peer]') names them and keeps their files apart."""
        db = os.path.join(work, 'catalogue%s.db' % tag.strip(' []'))
        base = os.path.join(work, 'base%s.db' % tag.strip(' []'))
        pages = os.path.join(work, 'pages%s' % tag.strip(' []'))
        ingest = os.path.join(bindir, 'modelcat-ingest')
        render = os.path.join(bindir, 'modelcat-render')

        def t_parse():
            return run([os.path.join(bindir, 'modelcat-parse'), 'all_ai_models=' + data])

        def t_first():
            rm(db)
            r = run([ingest, '--db', db, '--as-of', '2026-01-01', 'all_ai_models=' + data],
                    env=env)
            shutil.copyfile(db, base)
            # the page texts render needs (not timed)
            if os.path.exists(render):
                subprocess.run([os.path.join(bindir, 'modelcat-translate'), '--db', base],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return r

        def t_same():
            shutil.copyfile(base, db)
            return run([ingest, '--db', db, '--as-of', '2026-01-02',
                        'all_ai_models=' + data], env=env)

        def t_changed():
            shutil.copyfile(base, db)
            return run([ingest, '--db', db, '--as-of', '2026-01-02',
                        'all_ai_models=' + changed], env=env)

        def t_render():
            shutil.rmtree(pages, ignore_errors=True)
            return run([render, '--db', base, '--all', '--out', pages], env=env)

        steps = [('modelcat parse', t_parse), ('ingest, first', t_first),
                 ('ingest, same content', t_same), ('ingest, 1 % changed', t_changed)]
        if os.path.exists(render) and not big:
            steps.append(('render --all', t_render))
        return [(name + tag, fn) for name, fn in steps]

    tasks = [('cat', t_cat), ('sqlite3 .import', t_import)] + modelcat_tasks(BIN, '')
    if args.peer:
        tasks += modelcat_tasks(os.path.abspath(args.peer), ' [peer]')
    results = {name: [] for name, _ in tasks}
    for r in range(args.rounds):
        order = tasks if r % 2 == 0 else tasks[:1] + tasks[1:][::-1]
        # a first ingest must run before the ones that start from it
        order = sorted(order, key=lambda t: 0 if t[0].startswith('ingest, first') else 1) \
            if r % 2 else order
        for name, fn in order:
            seconds, rss, status = fn()
            # `time` exits with the command's status
            if status not in (0, 1):
                print('%s failed with status %d' % (name, status), file=sys.stderr)
                return 3
            results[name].append((seconds, rss))

    ref = statistics.median(s for s, _ in results['sqlite3 .import'])
    peer_col = ' vs [peer] |' if args.peer else ''
    lines = ['| step | median s | MB/s | rows/s | peak RSS | vs .import |' + peer_col,
             '|---|---:|---:|---:|---:|---:|' + ('---:|' if args.peer else '')]
    medians = {name: statistics.median(s for s, _ in results[name]) for name, _ in tasks}
    for name, _ in tasks:
        secs = medians[name]
        rss = [k for _, k in results[name] if k is not None]
        vs_peer = ''
        if args.peer:
            peer = medians.get(name + ' [peer]')
            vs_peer = ' %.2f× |' % (secs / peer) if peer else ' |'
        lines.append('| %s | %.3f | %.0f | %.0f | %s | %.2f× |%s' % (
            name, secs, mb / secs, rows / secs,
            '%.1f MiB' % (max(rss) / 1024) if rss else 'n/a', secs / ref, vs_peer))
    table = '\n'.join(lines)
    print(table)
    if args.write:
        text = open(args.write, encoding='utf-8').read() if os.path.exists(args.write) else ''
        tag = 'bench-big' if big else 'bench'
        start, end = '<!-- %s:start -->' % tag, '<!-- %s:end -->' % tag
        block = '%s\nMeasured %s on %s.\nInput: `all_ai_models` of 2025-04-23 scaled %d× with unique names: %.1f MB, %d rows; median of %d rounds.\n\n%s\n%s' % (
            start, time.strftime('%Y-%m-%d'), machine(), copies, mb, rows, args.rounds, table, end)
        if start in text and end in text:
            text = text[:text.index(start)] + block + text[text.index(end) + len(end):]
        else:
            text = text + '\n' + block + '\n'
        with open(args.write, 'w', encoding='utf-8') as f:
            f.write(text)
    if not os.environ.get('BENCH_DIR'):
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
