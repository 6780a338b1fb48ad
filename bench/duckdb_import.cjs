// The DuckDB anchor of `make bench`: read_csv of FILE into a table of DB,
// every column as text (as sqlite3's .import makes them).
// usage: node duckdb_import.cjs MODULES_DIR DB FILE
// MODULES_DIR is the node_modules folder holding @duckdb/node-api (the
// bench installs it, pinned, under build/duckdb).
'use strict';
const path = require('path');

async function main() {
	const [modules, db, file] = process.argv.slice(2);
	const { DuckDBInstance } = require(path.join(modules, '@duckdb', 'node-api'));
	const instance = await DuckDBInstance.create(db);
	const connection = await instance.connect();
	await connection.run(
		'CREATE TABLE t AS SELECT * FROM read_csv($1, header = true, all_varchar = true)',
		[file]);
	const reader = await connection.runAndReadAll('SELECT count(*) FROM t');
	process.stdout.write(String(reader.getRows()[0][0]) + '\n');
	connection.closeSync();
	instance.closeSync();
}

main().catch((e) => {
	process.stderr.write('duckdb_import: ' + (e && e.message ? e.message : e) + '\n');
	process.exit(3);
});
