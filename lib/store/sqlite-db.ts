// The SQLite store's database file (sqlite.ts): its tables, how it is opened (the wait for another
// process's write lock, WAL, synchronous) and the statements the store prepares once.
import Database from 'libsql'
import type { Stmt } from './sqlite-group.js'

export type Db = ReturnType<typeof open>

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS keys (hash TEXT PRIMARY KEY, id TEXT NOT NULL UNIQUE, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (k TEXT PRIMARY KEY, used INTEGER NOT NULL, expires INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS history (id TEXT NOT NULL, day TEXT NOT NULL, op TEXT NOT NULL, units INTEGER NOT NULL,` +
  ` PRIMARY KEY (id, day, op));
CREATE TABLE IF NOT EXISTS windows (k TEXT PRIMARY KEY, count INTEGER NOT NULL, ends INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
`

export function open (file: string, busyMs: number, sync: 'normal' | 'full') {
  const db = new Database(file)
  // the wait for another process's write lock comes first: switching to WAL itself may wait
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyMs))}`)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec(`PRAGMA synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`)
  return db
}

/** the first column of a raw statement's first row (libsql's pluck() does not pluck) */
export function one (stmt: Stmt, ...params: unknown[]): unknown {
  return (stmt.get(...params) as unknown[] | undefined)?.[0]
}

/** The statements the store runs on every request, by name. */
export type Statements = Record<
  'get' | 'getWindow' | 'putWindow' | 'get2' | 'put2' | 'hist' | 'key' | 'keys' | 'keyById' | 'putKey' | 'delKey',
  Stmt
>

/** Prepares the store's statements on `db` (raw: rows as arrays). */
export function prepareStatements (db: Db): Statements {
  const p = (sql: string): Stmt & { raw(): Stmt } => db.prepare(sql) as unknown as Stmt & { raw(): Stmt }
  return {
    get: p('SELECT used FROM counters WHERE k = ?').raw(),
    // a group's rows: read once, worked on in memory, written back once (Group)
    getWindow: p('SELECT count, ends FROM windows WHERE k = ?').raw(),
    putWindow: p(`INSERT INTO windows (k, count, ends) VALUES (?1, ?2, ?3)
        ON CONFLICT (k) DO UPDATE SET count = excluded.count, ends = excluded.ends`),
    get2: p('SELECT (SELECT used FROM counters WHERE k = ?1), (SELECT used FROM counters WHERE k = ?2)').raw(),
    put2: p(`INSERT INTO counters (k, used, expires) VALUES (?1, ?2, ?3), (?4, ?5, ?6)
        ON CONFLICT (k) DO UPDATE SET used = excluded.used`),
    hist: p(`INSERT INTO history (id, day, op, units) VALUES (?1, ?2, ?3, max(0, ?4))
        ON CONFLICT (id, day, op) DO UPDATE SET units = max(0, units + ?4)`),
    key: p('SELECT record FROM keys WHERE hash = ?').raw(),
    keys: p('SELECT record FROM keys ORDER BY rowid').raw(),
    keyById: p('SELECT record FROM keys WHERE id = ?1 OR hash = ?1').raw(),
    putKey: p('INSERT OR REPLACE INTO keys (hash, id, record) VALUES (?, ?, ?)'),
    delKey: p('DELETE FROM keys WHERE hash = ?')
  }
}
