#!/usr/bin/env python3
"""modelcat benchmarks, side by side with sqlite3's own .import.

Scales a bundled real export (all_ai_models) to >= 100 MB with unique
names (1 GB with BENCH_BIG=1), then times, in rounds that alternate the
commands:

  cat              reading the file (the floor)
  sqlite3 .import  sqlite3's CSV import of the same file (the reference)
  duckdb read_csv  DuckDB's read_csv of the same file into a table, every
                   column as text (the second anchor; npm @duckdb/node-api,
                   pinned, installed into build/duckdb on the first run;
                   left out, saying why, when it cannot be installed)
  parse            modelcat parse alone: read, map, normalise
  parse, records   modelcat parse --records-only: the CSV reader alone, with
                   the CPU's best path, then the SSE2 block splitter, the
                   SSE2 field reader and the scalar one (MODELCAT_CSV_PATH)
                   to show what each bought
  ingest first     ingest into an empty catalogue
  ingest same      ingest of the same content again (no change)
  ingest 1%        ingest of a copy with 1 % of rows changed
  render --all     every page (when modelcat-render exists; not with
                   BENCH_BIG=1, where it would take about ten minutes a round)
  publish          modelcat publish of the catalogue into an empty folder
                   (not with BENCH_BIG=1 either)
  publish 1%       modelcat publish, after the ingest of the 1 % changed copy,
                   into the site published before it (a hard-linked copy)
  floor: SQLite    what SQLite alone takes to store the rows a first ingest
                   stored: sqlite3 copying every table of that catalogue
                   into an empty one of the same schema, page size and cache,
                   foreign keys on, in one transaction, from a table (no
                   parsing, no hashing, no binding), the quicker of the
                   indexes filled row by row and the indexes made after the
                   rows. A catalogue has one writer, so this is the loading
                   thread's floor.
  floor: links     the files of the published site linked into a new folder
                   and unlinked again (cp -al, rm -rf): what a new version of
                   a site of whole versions costs in system calls alone,
                   before any page is rendered or compared. Not with
                   BENCH_BIG=1, where nothing is published.

Each modelcat step runs as people run it, through the front door
(`modelcat COMMAND`, which sets the commands' environment: GLIBC_TUNABLES,
src/modelcat.c), the peer's through its own. The bench
prints medians (wall clock, and CPU time: user + system, which a
loaded machine disturbs less), MB/s, rows/s, peak RSS and each figure as a
ratio to the .import of the same run, and to DuckDB's read_csv. With --write FILE the table goes into FILE
(docs/performance.md) with a description of the machine.

Then the wide row: one model (a real row of the same export) with
WIDE_COLUMNS (200,000) filled extra columns, generated, and in rounds:

  ingest           the file into an empty catalogue
  show             `show` of the model (text)
  render           `render` of its page (HTML)

each as a ratio to that ingest (the target: show and render within 2x).

With --peer BIN_DIR the modelcat steps also run with the programs of
another build (e.g. of the commit before a change) in the same rounds, and
a last column gives each step's median as a ratio to the peer's.

usage: bench.py [--rounds N] [--write FILE] [--peer BIN_DIR]
environment: BENCH_BIG=1 (1 GB), BENCH_DIR (work folder, default a temp dir),
BENCH_ONLY=scaled or wide (only that case; default both; the wide case
runs no peer and is left out with BENCH_BIG=1), BENCH_STEPS=NAME,... (time
only the steps whose names start so, besides cat and .import; the table
is then printed, not written, unless BENCH_BLOCK=TAG names the block of
--write it goes to: the tables of whole runs keep theirs), BENCH_NO_DUCKDB=1
(no DuckDB column)
"""
import argparse, csv, gzip, io, os, platform, shutil, sqlite3, statistics, subprocess, sys, \
    tempfile, time, urllib.parse

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(TOP, 'bin')
SOURCE = os.path.join(TOP, 'snapshots', 'all_ai_models', '2025-04-23.csv.gz')
SCALE = os.path.join(TOP, 'tests', 'e2e', 'scale_export.py')


TIME = '/usr/bin/time' if os.path.exists('/usr/bin/time') else None
DUCKDB_VERSION = '1.5.6-r.1'   # npm @duckdb/node-api, pinned
DUCKDB_DIR = os.path.join(TOP, 'build', 'duckdb')
DUCKDB_SCRIPT = os.path.join(TOP, 'bench', 'duckdb_import.cjs')
WIDE_COLUMNS = 200000
WIDE_TARGET = 2.0   # show and render within this ratio to the ingest


# CPU seconds (user + system) of each run, by argv, for the CPU column
CPU = {}


def command(bindir, name):
    """modelcat NAME of bindir, run through its front door, as people run
    it (the front door sets up the environment the commands run in)."""
    return [os.path.join(bindir, 'modelcat'), name]


def run(argv, stdin=None, env=None):
    """Run argv; return (seconds, peak RSS in KiB or None, exit status).
    Its CPU time (user + system) is kept in CPU[tuple(argv)].

    The peak RSS comes from /usr/bin/time (package `time`): a child forked
    by Python would count Python's own pages before its exec."""
    rss_file = None
    if TIME:
        fd, rss_file = tempfile.mkstemp(prefix='modelcat-rss.')
        os.close(fd)
        key = tuple(argv)
        argv = [TIME, '-f', '%M %U %S', '-o', rss_file] + argv
    start = time.perf_counter()
    status = subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env).returncode
    seconds = time.perf_counter() - start
    rss = None
    if rss_file:
        try:
            words = open(rss_file).read().split()
            rss = int(words[-3])
            CPU[key] = float(words[-2]) + float(words[-1])
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


def duckdb_modules():
    """The node_modules folder holding the pinned @duckdb/node-api, installed
    there by npm when missing; None (with a note printed) when it cannot be."""
    modules = os.path.join(DUCKDB_DIR, 'node_modules')
    package = os.path.join(modules, '@duckdb', 'node-api', 'package.json')
    if os.environ.get('BENCH_NO_DUCKDB') == '1':
        print('# DuckDB left out (BENCH_NO_DUCKDB=1)')
        return None
    try:
        import json
        if json.load(open(package)).get('version') == DUCKDB_VERSION:
            return modules
    except (OSError, ValueError):
        pass
    if not shutil.which('node') or not shutil.which('npm'):
        print('# DuckDB left out: node and npm are needed (apt-get install nodejs npm)')
        return None
    os.makedirs(DUCKDB_DIR, exist_ok=True)
    log = os.path.join(DUCKDB_DIR, 'npm.log')
    print('# installing @duckdb/node-api@%s into build/duckdb' % DUCKDB_VERSION)
    with open(log, 'w') as f:
        status = subprocess.run(['npm', 'install', '--prefix', DUCKDB_DIR, '--no-audit',
                                 '--no-fund', '--no-save',
                                 '@duckdb/node-api@' + DUCKDB_VERSION],
                                stdout=f, stderr=subprocess.STDOUT).returncode
    if status != 0 or not os.path.exists(package):
        print('# DuckDB left out: npm could not install @duckdb/node-api@%s (see %s)' % (
            DUCKDB_VERSION, log))
        return None
    return modules


def remove_db(*paths):
    """Remove SQLite files and their journals."""
    for p in paths:
        for side in ('', '-journal', '-wal', '-shm'):
            if os.path.exists(p + side):
                os.remove(p + side)


def floor_script(base, path, indexes_after):
    """Write to path the sqlite3 script of the SQLite floor: an empty
    catalogue with base's tables, page size and first-load cache, then in
    one transaction each of base's tables copied into it in the order they
    were made (a table before those that refer to it). Its indexes are
    made with the tables and filled row by row, or with indexes_after made
    after the rows; the constraints' own indexes (UNIQUE) are filled as
    the rows go in either way."""
    con = sqlite3.connect('file:%s?mode=ro' % urllib.parse.quote(base), uri=True)
    try:
        page = con.execute('PRAGMA page_size').fetchone()[0]
        schema = con.execute("SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL"
                             " AND name NOT LIKE 'sqlite_%' ORDER BY rowid").fetchall()
    finally:
        con.close()
    quote = lambda name: '"%s"' % name.replace('"', '""')
    indexes = ['%s;' % sql for kind, _, sql in schema if kind == 'index']
    before, after = ([], indexes) if indexes_after else (indexes, [])
    lines = ['PRAGMA page_size = %d;' % page, 'PRAGMA foreign_keys = ON;',
             'PRAGMA cache_size = -65536;']
    lines += ['%s;' % sql for kind, _, sql in schema if kind != 'index'] + before
    lines += ["ATTACH '%s' AS b;" % base.replace("'", "''"), 'BEGIN;']
    lines += ['INSERT INTO main.%s SELECT * FROM b.%s;' % (quote(name), quote(name))
              for kind, name, _ in schema if kind == 'table']
    lines += after + ['COMMIT;']
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')


def write_block(path, tag, body):
    """Put body between <!-- tag:start --> and <!-- tag:end --> in path
    (appended when the markers are not there yet)."""
    text = open(path, encoding='utf-8').read() if os.path.exists(path) else ''
    start, end = '<!-- %s:start -->' % tag, '<!-- %s:end -->' % tag
    block = '%s\n%s\n%s' % (start, body, end)
    if start in text and end in text:
        text = text[:text.index(start)] + block + text[text.index(end) + len(end):]
    else:
        text = text + '\n' + block + '\n'
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def scaled(args, work, big):
    """The scaled export against sqlite3's .import: 0, or 3 when a step failed."""
    copies = 250 if big else 30
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

    def t_cat():
        with open(data, 'rb') as f:
            return run(['cat'], stdin=f)

    def t_import():
        remove_db(imp)
        return run(['sqlite3', imp, '.import --csv %s t' % data])

    duck_db = os.path.join(work, 'import.duckdb')
    modules = duckdb_modules()

    def t_duckdb():
        remove_db(duck_db)
        if os.path.exists(duck_db + '.wal'):
            os.remove(duck_db + '.wal')
        return run(['node', DUCKDB_SCRIPT, modules, duck_db, data])

    def modelcat_tasks(bindir, tag):
        """The modelcat steps run with the programs of bindir; tag ('' or
        ' [peer]') names them and keeps their files apart."""
        db = os.path.join(work, 'catalogue%s.db' % tag.strip(' []'))
        base = os.path.join(work, 'base%s.db' % tag.strip(' []'))
        pages = os.path.join(work, 'pages%s' % tag.strip(' []'))
        site = os.path.join(work, 'site%s' % tag.strip(' []'))
        render = os.path.join(bindir, 'modelcat-render')

        def t_parse():
            return run(command(bindir, 'parse') + ['all_ai_models=' + data])

        def t_records(path):
            def t():
                e = dict(env)
                if path:
                    e['MODELCAT_CSV_PATH'] = path
                return run(command(bindir, 'parse') + ['--records-only', data],
                           env=e)
            return t

        def t_publish():
            shutil.rmtree(site, ignore_errors=True)
            r = run(command(bindir, 'publish') + ['--db', base, '--out', site],
                    env=env)
            # 3.4 GB of files: on a tmpfs they take the memory the next steps use
            shutil.rmtree(site, ignore_errors=True)
            return r

        published = os.path.join(work, 'published%s' % tag.strip(' []'))
        again = os.path.join(work, 'again%s' % tag.strip(' []'))
        moved = os.path.join(work, 'moved%s.db' % tag.strip(' []'))
        # made by the first round of this run, never by an earlier run's programs
        shutil.rmtree(published, ignore_errors=True)
        remove_db(moved)

        def ensure_published():
            """the site published from the first ingest's catalogue (made
            once a run, not timed)"""
            if not os.path.exists(published):
                subprocess.run(command(bindir, 'publish') + ['--db', base, '--out', published],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)

        def t_publish_changed():
            """publish after an ingest of the 1 % changed copy, into a
            site published from the catalogue before it (a hard-linked
            copy, made again each round: neither is timed)"""
            publish = command(bindir, 'publish')
            quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            ensure_published()
            if not os.path.exists(moved):
                shutil.copyfile(base, moved)
                subprocess.run(command(bindir, 'ingest') +
                               ['--db', moved, '--as-of', '2026-01-02', 'all_ai_models=' + changed],
                               **quiet)
            shutil.rmtree(again, ignore_errors=True)
            subprocess.run(['cp', '-al', published, again], check=True)
            r = run(publish + ['--db', moved, '--out', again], env=env)
            shutil.rmtree(again, ignore_errors=True)
            return r

        def t_first():
            remove_db(db)
            r = run(command(bindir, 'ingest') +
                    ['--db', db, '--as-of', '2026-01-01', 'all_ai_models=' + data], env=env)
            shutil.copyfile(db, base)
            # the page texts render needs (not timed)
            if os.path.exists(render):
                subprocess.run([os.path.join(bindir, 'modelcat-translate'), '--db', base],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return r

        def t_same():
            shutil.copyfile(base, db)
            return run(command(bindir, 'ingest') +
                       ['--db', db, '--as-of', '2026-01-02', 'all_ai_models=' + data], env=env)

        def t_changed():
            shutil.copyfile(base, db)
            return run(command(bindir, 'ingest') +
                       ['--db', db, '--as-of', '2026-01-02', 'all_ai_models=' + changed], env=env)

        floor_db = os.path.join(work, 'floor.db')
        floor_sql = os.path.join(work, 'floor.sql')

        def t_floor_sqlite():
            """the quicker of SQLite's two ways: the indexes filled row by
            row, or made after the rows (the first ingest takes the first at
            120 MB, the second for its index of names at 1 GB; each was the
            quicker at one size by hand)"""
            best = None
            for indexes_after in (False, True):
                remove_db(floor_db)
                floor_script(base, floor_sql, indexes_after)
                CPU.clear()
                with open(floor_sql, 'rb') as f:
                    r = run(['sqlite3', '-bail', floor_db], stdin=f)
                if r[2] != 0:
                    return r
                if best is None or r[0] < best[0][0]:
                    best = (r, sum(CPU.values()))
            remove_db(floor_db)
            CPU.clear()
            CPU[('floor',)] = best[1]
            return best[0]

        def t_floor_links():
            ensure_published()
            versions = [os.path.join(published, '.modelcat', d)
                        for d in os.listdir(os.path.join(published, '.modelcat'))
                        if d.startswith('site-')]
            if len(versions) != 1:
                print('floor: %d site versions in %s, where one was published' % (
                    len(versions), published), file=sys.stderr)
                return 0.0, None, 2
            linked = os.path.join(work, 'linked')
            shutil.rmtree(linked, ignore_errors=True)
            return run(['sh', '-c', 'cp -al "$1" "$2" && rm -rf "$2"', 'sh', versions[0], linked])

        def t_render():
            shutil.rmtree(pages, ignore_errors=True)
            r = run(command(bindir, 'render') + ['--db', base, '--all', '--out', pages], env=env)
            shutil.rmtree(pages, ignore_errors=True)   # as the publish steps' sites
            return r

        steps = [('modelcat parse', t_parse)]
        # the reader alone, by splitter (a peer without --records-only has none)
        parse_help = subprocess.run([os.path.join(bindir, 'modelcat-parse'), '--help'],
                                    capture_output=True, text=True).stdout
        if '--records-only' in parse_help:
            steps += [('parse, records', t_records(None)),
                      ('parse, records, sse2', t_records('sse2')),
                      ('parse, records, fields', t_records('fields')),
                      ('parse, records, scalar', t_records('scalar'))]
        steps += [('ingest, first', t_first),
                  ('ingest, same content', t_same), ('ingest, 1 % changed', t_changed)]
        if os.path.exists(render) and not big:
            steps.append(('render --all', t_render))
        if os.path.exists(os.path.join(bindir, 'modelcat-publish')) and not big:
            steps.append(('publish', t_publish))
            steps.append(('publish, 1 % changed', t_publish_changed))
        if not tag:
            steps.append(('floor: SQLite stores the rows', t_floor_sqlite))
            if os.path.exists(os.path.join(bindir, 'modelcat-publish')) and not big:
                steps.append(('floor: the site linked and unlinked', t_floor_links))
        return [(name + tag, fn) for name, fn in steps]

    tasks = [('cat', t_cat), ('sqlite3 .import', t_import)]
    if modules:
        tasks.append(('duckdb read_csv', t_duckdb))
    tasks += modelcat_tasks(BIN, '')
    if args.peer:
        tasks += modelcat_tasks(os.path.abspath(args.peer), ' [peer]')
    # BENCH_STEPS: the anchors and the steps named (and the first ingest
    # when a step starts from its catalogue)
    wanted = [w.strip() for w in os.environ.get('BENCH_STEPS', '').split(',') if w.strip()]
    if wanted:
        needs_first = any(w.split()[0].rstrip(':,') in ('ingest', 'render', 'publish', 'floor')
                          for w in wanted)
        tasks = [t for t in tasks
                 if t[0] in ('cat', 'sqlite3 .import', 'duckdb read_csv')
                 or (needs_first and t[0].startswith('ingest, first'))
                 or any(t[0].startswith(w) for w in wanted)]
    results = {name: [] for name, _ in tasks}
    cpu = {name: [] for name, _ in tasks}
    for r in range(args.rounds):
        order = tasks if r % 2 == 0 else tasks[:1] + tasks[1:][::-1]
        # a first ingest must run before the ones that start from it
        order = sorted(order, key=lambda t: 0 if t[0].startswith('ingest, first') else 1) \
            if r % 2 else order
        for name, fn in order:
            CPU.clear()
            seconds, rss, status = fn()
            # `time` exits with the command's status
            if status not in (0, 1):
                print('%s failed with status %d' % (name, status), file=sys.stderr)
                return 3
            results[name].append((seconds, rss))
            cpu[name].append(sum(CPU.values()))

    ref = statistics.median(s for s, _ in results['sqlite3 .import'])
    duck = statistics.median(s for s, _ in results['duckdb read_csv']) if modules else None
    peer_col = ' vs [peer] |' if args.peer else ''
    duck_col = ' vs DuckDB |' if duck else ''
    lines = ['| step | median s | CPU s | MB/s | rows/s | peak RSS | vs .import |' + duck_col +
             peer_col,
             '|---|---:|---:|---:|---:|---:|---:|' + ('---:|' if duck else '') +
             ('---:|' if args.peer else '')]
    medians = {name: statistics.median(s for s, _ in results[name]) for name, _ in tasks}
    for name, _ in tasks:
        secs = medians[name]
        rss = [k for _, k in results[name] if k is not None]
        vs_peer = ''
        if args.peer:
            peer = medians.get(name + ' [peer]')
            vs_peer = ' %.2f× |' % (secs / peer) if peer else ' |'
        vs_duck = ' %.2f× |' % (secs / duck) if duck else ''
        lines.append('| %s | %.3f | %.3f | %.0f | %.0f | %s | %.2f× |%s%s' % (
            name, secs, statistics.median(cpu[name]) if cpu[name] else 0, mb / secs, rows / secs,
            '%.1f MiB' % (max(rss) / 1024) if rss else 'n/a', secs / ref, vs_duck, vs_peer))
    table = '\n'.join(lines)
    print(table)
    load = os.getloadavg()
    print('# load average at the end: %.2f %.2f %.2f' % load)
    block = 'bench-big' if big else 'bench'
    if wanted:
        # a part of a run never takes the place of a whole run's table, nor
        # of another part's that a document quotes: it goes where it is told
        block = args.block
        if args.write and not block:
            print('# BENCH_STEPS: the table is not written (BENCH_BLOCK=TAG writes it '
                  'to the block TAG of %s)' % args.write)
    if args.write and block:
        write_block(args.write, block,
                    'Measured %s on %s; load average at the end %.2f, %.2f, %.2f.\nInput: `all_ai_models` of 2025-04-23 scaled %d× with unique names: %.1f MB, %d rows; median of %d rounds.\n\n%s' % (
                        time.strftime('%Y-%m-%d'), machine(), load[0], load[1], load[2],
                        copies, mb, rows, args.rounds, table))
    return 0


def write_wide(path, columns):
    """One model with columns filled extra columns: the header and the
    first named row of the bundled all_ai_models, then "Extra column 1"
    ... with a value in every cell. Returns the model's name."""
    data = open(SOURCE, 'rb').read()
    data = gzip.decompress(data) if data[:2] == b'\x1f\x8b' else data
    reader = csv.reader(io.StringIO(data.decode('utf-8-sig'), newline=''))
    header = next(reader)
    name_at = header.index('Model') if 'Model' in header else header.index('System')
    row = next(r for r in reader if r[name_at].strip())
    with open(path, 'w', encoding='utf-8', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(header + ['Extra column %d' % i for i in range(1, columns + 1)])
        w.writerow(row + ['value %d, %x' % (i, i * 2654435761 % 2 ** 32)
                          for i in range(1, columns + 1)])
    return row[name_at].strip()


def wide(args, work):
    """The wide row: ingest, show and render of one model with
    WIDE_COLUMNS filled columns; 0, or 3 when a step failed."""
    data = os.path.join(work, 'wide', 'wide_models.csv')
    os.makedirs(os.path.dirname(data), exist_ok=True)
    name = write_wide(data, WIDE_COLUMNS)
    db = os.path.join(work, 'wide', 'catalogue.db')
    base = os.path.join(work, 'wide', 'base.db')
    mb = os.path.getsize(data) / 1e6
    print('# %s: %.1f MB, one row of %d extra columns, %d rounds' % (data, mb, WIDE_COLUMNS,
                                                                  args.rounds))

    def t_ingest():
        remove_db(db)
        r = run(command(BIN, 'ingest') + ['--db', db, '--as-of', '2026-01-01',
                 'wide_models=' + data])
        shutil.copyfile(db, base)
        subprocess.run([os.path.join(BIN, 'modelcat-translate'), '--db', base],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return r

    def t_show():
        return run(command(BIN, 'show') + ['--db', base, '--as-of', '2026-01-01',
                    name])

    def t_render():
        return run(command(BIN, 'render') + ['--db', base, '--as-of', '2026-01-01',
                    '--format', 'html', name])

    tasks = [('ingest, wide row', t_ingest), ('show, wide row', t_show),
             ('render, wide row', t_render)]
    results = {step: [] for step, _ in tasks}
    for r in range(args.rounds):
        # the ingest first (the others read its catalogue), then alternating
        order = tasks[:1] + (tasks[1:] if r % 2 == 0 else tasks[:0:-1])
        for step, fn in order:
            seconds, rss, status = fn()
            if status != 0:
                print('%s failed with status %d' % (step, status), file=sys.stderr)
                return 3
            results[step].append((seconds, rss))
    medians = {step: statistics.median(s for s, _ in results[step]) for step, _ in tasks}
    ref = medians['ingest, wide row']
    lines = ['| step | median s | fields/s | peak RSS | vs ingest |',
             '|---|---:|---:|---:|---:|']
    for step, _ in tasks:
        rss = [k for _, k in results[step] if k is not None]
        lines.append('| %s | %.3f | %.0f | %s | %.2f× |' % (
            step, medians[step], WIDE_COLUMNS / medians[step],
            '%.1f MiB' % (max(rss) / 1024) if rss else 'n/a', medians[step] / ref))
    table = '\n'.join(lines)
    print(table)
    worst = max(medians['show, wide row'], medians['render, wide row']) / ref
    verdict = 'within' if worst <= WIDE_TARGET else 'NOT within'
    print('# show and render: at most %.2f× the ingest, %s the %.0f× target' % (
        worst, verdict, WIDE_TARGET))
    if args.write:
        write_block(args.write, 'bench-wide',
                    'Measured %s on %s.\nInput: one model (the first row of `all_ai_models` of 2025-04-23) with %d filled extra columns: %.1f MB; median of %d rounds. Show and render: at most %.2f× the ingest, %s the %.0f× target.\n\n%s' % (
                        time.strftime('%Y-%m-%d'), machine(), WIDE_COLUMNS, mb, args.rounds,
                        worst, verdict, WIDE_TARGET, table))
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--write')
    ap.add_argument('--peer', metavar='BIN_DIR',
                    help='also time the programs in BIN_DIR (another build, e.g. of an '
                         'earlier commit) in the same rounds; rows marked [peer]')
    args = ap.parse_args()
    big = os.environ.get('BENCH_BIG') == '1'
    only = os.environ.get('BENCH_ONLY', '')
    if only not in ('', 'scaled', 'wide'):
        print('bench.py: BENCH_ONLY is scaled or wide, not %r' % only, file=sys.stderr)
        return 2
    args.block = os.environ.get('BENCH_BLOCK', '').strip() or None
    if args.block and not all(c.isalnum() or c in '-_' for c in args.block):
        print('bench.py: BENCH_BLOCK is a tag of letters, digits, - and _, not %r' % args.block,
              file=sys.stderr)
        return 2
    work = os.environ.get('BENCH_DIR') or tempfile.mkdtemp(prefix='modelcat-bench.')
    os.makedirs(work, exist_ok=True)
    status = 0
    if only != 'wide':
        status = scaled(args, work, big)
    if not status and only != 'scaled' and not big:
        status = wide(args, work)
    if not os.environ.get('BENCH_DIR'):
        shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == '__main__':
    sys.exit(main())
