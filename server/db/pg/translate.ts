/**
 * SQLite → PostgreSQL statement translator for the synchronous facade (`PgSyncDb`).
 *
 * The server's ~700 statements are written for SQLite. Most differences are mechanical and safe to
 * rewrite with regexes once quoted literals, quoted identifiers and comments are set aside (a JSON
 * path such as '$.text' or a '?' inside a string must never be touched). What this handles:
 * - parameters: `?`, `?NNN`, `@name`, `:name`, `$name` → `$1..$n` (one name = one number);
 * - camelCase aliases (`AS vehicleId`) are quoted, since PG folds unquoted names to lower case and the
 *   JS would read `undefined`; the table `user` (a reserved word in PG) is quoted;
 * - `LIKE` → `ILIKE` (SQLite's LIKE folds ASCII case; ILIKE in a C-ctype database does the same);
 * - `INSERT OR IGNORE` → `ON CONFLICT DO NOTHING`; `INSERT OR REPLACE` → an upsert on the primary key
 *   (needs the catalogue); `RETURNING id` added to an INSERT into a table with an `id` column, so
 *   `run()` can answer `lastInsertRowid`;
 * - `IS ?` / `IS NOT ?` → `IS [NOT] DISTINCT FROM`; a bare `1`/`0` condition (`WHERE 1 AND …`, from
 *   `scopeCondition`) → `TRUE`/`FALSE`;
 * - functions: `group_concat` → `string_agg`, `instr` → `strpos`, `ifnull` → `coalesce`, scalar
 *   two-argument `max`/`min` → `greatest`/`least`, `json_extract(c, '$.k')` → `(c::json->>'k')`;
 * - `BEGIN IMMEDIATE|EXCLUSIVE|DEFERRED [TRANSACTION]` → `BEGIN` (the caller adds the advisory lock).
 * - `col IN (SELECT value FROM json_each(?))` → a text comparison with `json_array_elements_text`.
 * - `a = b COLLATE NOCASE` → `lower(a) = lower(b)`, `x COLLATE NOCASE` → `lower(x)`; `sum(<condition>)` as
 *   0/1; `date/strftime(…, 'unixepoch')` as UTC `to_char`; `rowid` of an INTEGER PRIMARY KEY table; an alias
 *   for an unnamed FROM-list subquery.
 * Not handled (hand rewrites, listed in server/db/CONTEXT.md): other `strftime`, other `json_each`,
 * `json_group_object`, `PRAGMA`, NULL ordering, bare columns in GROUP BY, boolean arithmetic.
 */

/** What the translator needs to know about the PG schema (read once at open). */
export interface PgCatalog {
  /** Tables with an `id` column: an INSERT into one gets `RETURNING id`. */
  readonly idTables: ReadonlySet<string>;
  /** Primary-key columns and all columns per table, for `INSERT OR REPLACE`. */
  readonly primaryKeys: ReadonlyMap<string, readonly string[]>;
  /** Tables partitioned by day, with their key column: an INSERT names which argument holds the key. */
  readonly partitioned?: ReadonlyMap<string, string>;
  /**
   * Tables with a `rowid` column (SQLite rowid tables without an INTEGER PRIMARY KEY, schema.ts). In an
   * `id`-table (idTables) without one, SQLite's `rowid` is the INTEGER PRIMARY KEY `id`.
   */
  readonly rowidTables?: ReadonlySet<string>;
}

export const EMPTY_CATALOG: PgCatalog = { idTables: new Set(), primaryKeys: new Map() };

export interface Translated {
  readonly text: string;
  /** Source of `$1..$n`: a number is an index into the positional arguments, a string a named one. */
  readonly params: readonly (number | string)[];
  /** `RETURNING id` was added by the translator: `run()` reads lastInsertRowid from it, `all()` hides it. */
  readonly returningId: boolean;
  /** The statement answers rows (a query, or a statement the source wrote with RETURNING). */
  readonly reader: boolean;
  /** `BEGIN IMMEDIATE|EXCLUSIVE`: SQLite's one-writer lock, taken on PG as an advisory lock. */
  readonly beginWrite: boolean;
  /** The table an INSERT writes to (lower case). */
  readonly insertTable?: string;
  /** The INSERT gives `id` itself (seeds): the identity sequence must be moved past it before the next one. */
  readonly explicitId?: boolean;
  /** For an INSERT … VALUES into a day-partitioned table: the argument that holds the partition key. */
  readonly partitionKeySource?: number | string;
}

const MARK = '\uE000';

/** Replaces literals, quoted identifiers and comments with `\uE000N\uE000` marks; `restore` puts them back. */
function protect(sql: string): { code: string; restore: (s: string) => string } {
  const saved: string[] = [];
  let code = '';
  let i = 0;
  const keep = (text: string) => {
    code += `${MARK}${saved.length}${MARK}`;
    saved.push(text);
  };
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) throw new SyntaxError(`unterminated ${c} in SQL: ${sql}`);
        if (sql[j] === c) {
          if (sql[j + 1] === c) { j += 2; continue; } // doubled quote = one quote character
          break;
        }
        j++;
      }
      const body = sql.slice(i + 1, j);
      // Backticks are SQLite's alternative identifier quotes; PG knows only double quotes.
      keep(c === '`' ? `"${body.replaceAll('``', '`')}"` : sql.slice(i, j + 1));
      i = j + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
      code += ' ';
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
      code += ' ';
    } else {
      code += c;
      i++;
    }
  }
  const restore = (s: string) => s.replace(/\uE000(\d+)\uE000/g, (_, n: string) => saved[Number(n)]!);
  return { code, restore };
}

/** Index of the parenthesis closing the one at `open`, or -1. */
function closing(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Top-level comma-separated arguments of the call whose '(' is at `open`. */
function splitArgs(s: string, open: number, close: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < close; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth--;
    else if (s[i] === ',' && depth === 0) { args.push(s.slice(start, i).trim()); start = i + 1; }
  }
  args.push(s.slice(start, close).trim());
  return args;
}

/** Rewrites every call `name(args)`, innermost last; `rewrite` answers undefined to leave a call alone. */
function rewriteCalls(s: string, name: string, rewrite: (args: string[]) => string | undefined): string {
  const re = new RegExp(`(?<![\\w.])${name}\\s*\\(`, 'gi');
  let out = '';
  let from = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    const open = m.index + m[0].length - 1;
    const close = closing(s, open);
    if (close < 0) break;
    const replaced = rewrite(splitArgs(s, open, close).map((a) => rewriteCalls(a, name, rewrite)));
    if (replaced === undefined) continue;
    out += s.slice(from, m.index) + replaced;
    from = close + 1;
    re.lastIndex = close + 1;
  }
  return out + s.slice(from);
}

/** The literal text of a protected mark (for json_extract's path), or undefined. */
function literalOf(arg: string, restore: (s: string) => string): string | undefined {
  if (!/^\uE000\d+\uE000$/.test(arg)) return undefined;
  const text = restore(arg);
  return text.startsWith("'") ? text.slice(1, -1).replaceAll("''", "'") : undefined;
}

const quoteLiteral = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * True when `expr` is a condition at its top level (a comparison, IS [NOT] NULL, LIKE, IN, BETWEEN, AND/OR,
 * NOT, EXISTS), not merely holding one inside parentheses or a CASE (`sum(CASE WHEN a > 0 THEN a END)`).
 */
/** `((a <> 0))` → `a <> 0`: the parentheses that wrap the whole expression (they hide a condition from `isCondition`). */
function unwrapParens(expr: string): string {
  let e = expr.trim();
  for (;;) {
    if (!e.startsWith('(') || !e.endsWith(')')) return e;
    let depth = 0;
    for (let i = 0; i < e.length; i++) {
      if (e[i] === '(') depth++;
      else if (e[i] === ')') depth--;
      if (depth === 0 && i < e.length - 1) return e; // the first '(' closes before the end: `(a) + (b)`
    }
    e = e.slice(1, -1).trim();
  }
}

function isCondition(expr: string): boolean {
  expr = unwrapParens(expr);
  let top = '';
  let depth = 0;
  for (const c of expr) {
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0) top += c;
  }
  top = top.replace(/\bCASE\b[\s\S]*?\bEND\b/gi, ' ');
  return /[=<>]|!=|\b(?:IS|I?LIKE|IN|BETWEEN|AND|OR|NOT|EXISTS|GLOB)\b/i.test(top);
}

/** SQLite strftime fields PG's to_char writes the same way. */
const STRFTIME_FIELDS: Readonly<Record<string, string>> = { Y: 'YYYY', m: 'MM', d: 'DD', H: 'HH24', M: 'MI', S: 'SS' };

/** `to_char` of epoch seconds `seconds` in UTC, for a strftime `format` of the fields above (else undefined). */
function utcText(seconds: string, format: string): string | undefined {
  let pattern = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c === '%') {
      const field = STRFTIME_FIELDS[format[++i] ?? ''];
      if (!field) return undefined;
      pattern += field;
    } else if (/[-:/ T]/.test(c)) pattern += c;
    else return undefined;
  }
  return `to_char(to_timestamp(${seconds}) AT TIME ZONE 'UTC', ${quoteLiteral(pattern)})`;
}

/** Words that may follow a FROM-list subquery without being its alias. */
const NOT_AN_ALIAS = /^(?:LEFT|RIGHT|INNER|OUTER|CROSS|FULL|NATURAL|JOIN|ON|USING|WHERE|GROUP|HAVING|WINDOW|ORDER|LIMIT|OFFSET|UNION|EXCEPT|INTERSECT|RETURNING)$/i;

/**
 * `FROM (SELECT 1) LEFT JOIN …` (audit/writer.ts): SQLite, and PG from 16 on, take a subquery in FROM
 * without an alias; PG 15 (Debian 12's) refuses it ("subquery in FROM must have an alias"). One is added.
 */
function aliasSubqueries(s: string): string {
  const re = /\b(?:FROM|JOIN)\s*\(\s*(?:SELECT|VALUES|WITH)\b/gi;
  let out = '';
  let from = 0;
  let n = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    const open = s.indexOf('(', m.index);
    const close = closing(s, open);
    if (close < 0) break;
    const next = /^\s*([A-Za-z_]\w*|"|\uE000)?/.exec(s.slice(close + 1))![1];
    if (next === undefined || NOT_AN_ALIAS.test(next)) {
      out += `${s.slice(from, close + 1)} AS _sub${n++}`;
      from = close + 1;
    }
    re.lastIndex = open + 1;
  }
  return out + s.slice(from);
}

/**
 * `rowid` of a table with an INTEGER PRIMARY KEY is that column in SQLite, and PG has no such column there
 * (schema.ts gives only the other rowid tables one): `SELECT * FROM "vehicle" ORDER BY rowid`
 * (server/test/db-fingerprint.ts) orders by `id`, a table keyed by `vehicle_id` by that. Only in a statement over that one table (no join, no
 * other table named), where an unqualified `rowid` can mean nothing else.
 */
function rowidAsId(s: string, catalog: PgCatalog, restore: (s: string) => string): string {
  if (!catalog.rowidTables || !/(?<![\w.])rowid\b/i.test(s)) return s;
  const tables = new Set([...s.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO)\s+(\uE000\d+\uE000|\w+)/gi)]
    .map((m) => restore(m[1]!).replace(/^"|"$/g, '').toLowerCase()));
  if (tables.size !== 1 || /\bJOIN\b/i.test(s)) return s;
  const table = [...tables][0]!;
  const pk = catalog.primaryKeys.get(table);
  // A table without a rowid column is an INTEGER PRIMARY KEY one (its key is the rowid) or WITHOUT ROWID.
  if (catalog.rowidTables.has(table) || pk?.length !== 1) return s;
  return s.replace(/(?<![\w.])rowid\b/gi, `"${pk[0]!.replaceAll('"', '""')}"`);
}

/** Translates one SQLite statement (no trailing second statement) to PostgreSQL. */
export function translate(sql: string, catalog: PgCatalog = EMPTY_CATALOG): Translated {
  const { code: protectedCode, restore } = protect(sql);
  let s = protectedCode.trim().replace(/;\s*$/, '');

  const begin = /^BEGIN(?:\s+(DEFERRED|IMMEDIATE|EXCLUSIVE))?(?:\s+TRANSACTION)?$/i.exec(s);
  if (begin) {
    const mode = (begin[1] ?? '').toUpperCase();
    return { text: 'BEGIN', params: [], returningId: false, reader: false, beginWrite: mode === 'IMMEDIATE' || mode === 'EXCLUSIVE' };
  }
  if (/^(?:END|COMMIT)(?:\s+TRANSACTION)?$/i.test(s)) return { text: 'COMMIT', params: [], returningId: false, reader: false, beginWrite: false };
  if (/^PRAGMA\b/i.test(s)) throw new Error(`PRAGMA has no PostgreSQL equivalent: ${sql}`);

  // Parameters first: later rewrites add `::` casts, which must not read as `:name`.
  const params: (number | string)[] = [];
  const named = new Map<string, number>();
  let positional = 0;
  s = s.replace(/\?(\d+)?|[@:$]([A-Za-z_][A-Za-z0-9_]*)/g, (_, num: string | undefined, name: string | undefined) => {
    if (name !== undefined) {
      let n = named.get(name);
      if (n === undefined) {
        params.push(name);
        n = params.length;
        named.set(name, n);
      }
      return `$${n}`;
    }
    // `?NNN` is 1-based in SQLite; a bare `?` takes the next positional argument.
    const index = num === undefined ? positional++ : Number(num) - 1;
    params.push(index);
    return `$${params.length}`;
  });

  const insert = /^INSERT\s+(?:OR\s+(IGNORE|REPLACE)\s+)?INTO\s+(?:\uE000(\d+)\uE000|(\w+))/i.exec(s);
  const insertTable = insert ? (insert[3] ?? restore(`${MARK}${insert[2]}${MARK}`).replace(/^"|"$/g, '')).toLowerCase() : undefined;
  const hadReturning = /\bRETURNING\b/i.test(s);

  s = s.replace(/\bIS\s+NOT\s+(\$\d+)/gi, 'IS DISTINCT FROM $1').replace(/\bIS\s+(\$\d+)/gi, 'IS NOT DISTINCT FROM $1');
  s = s.replace(/(?<![\w."$])user(?![\w"])/gi, '"user"');
  s = s.replace(/(?<![\w"$])([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*)\b/g, '"$1"');
  // `name = ? COLLATE NOCASE` (device types, lines: a name unique regardless of case): SQLite's NOCASE folds
  // ASCII letters only, as lower() does in a C-ctype database (the schema's unique indexes use lower() too).
  s = s.replace(/([\w.$]+|\uE000\d+\uE000)\s*(=|!=|<>)\s*([\w.$]+|\uE000\d+\uE000)\s+COLLATE\s+NOCASE\b/gi, 'lower($1) $2 lower($3)');
  s = s.replace(/([\w.$]+|\uE000\d+\uE000)\s+COLLATE\s+NOCASE\b/gi, 'lower($1)');
  s = s.replace(/\bLIKE\b/gi, 'ILIKE');
  // SQLite's table hints (a scan chosen over an index, change-log.ts): PostgreSQL's planner decides alone.
  s = s.replace(/\s+NOT\s+INDEXED\b/gi, '').replace(/\s+INDEXED\s+BY\s+[\w"]+/gi, '');
  // A bare constant condition: `scopeCondition` answers '1' for the whole forest (`WHERE 1 AND …`).
  s = s.replace(/(\b(?:WHERE|AND|OR)\s+(?:\(\s*)?)([01])(?=\s*(?:$|\)|\b(?:AND|OR|ORDER|GROUP|LIMIT)\b))/gi, (_, pre: string, bit: string) => `${pre}${bit === '1' ? 'TRUE' : 'FALSE'}`);

  // `col IN (SELECT value FROM json_each(?))` (a JSON array as an IN list): PG's json_each walks objects, and
  // its elements come back as text, so the column is compared as text (exact for integer ids and strings).
  s = s.replace(/([\w.]+)\s+(NOT\s+)?IN\s*\(\s*SELECT\s+value\s+FROM\s+json_each\((\$\d+)\)\s*\)/gi,
    (_, col: string, not: string | undefined, p: string) => `${col}::text ${not ?? ''}IN (SELECT value FROM json_array_elements_text(${p}::json))`);
  s = rewriteCalls(s, 'group_concat', (a) => `string_agg((${a[0]})::text, ${a[1] ?? "','"})`);
  s = rewriteCalls(s, 'instr', (a) => `strpos(${a.join(', ')})`);
  s = rewriteCalls(s, 'ifnull', (a) => `coalesce(${a.join(', ')})`);
  // `date(ms / 1000, 'unixepoch')`, `strftime('%Y-%m', ms / 1000, 'unixepoch')` (obd/reports.ts, portrait.ts):
  // the UTC calendar text of epoch seconds (the callers add China's 8 h themselves).
  s = rewriteCalls(s, 'date', (a) => (a.length === 2 && literalOf(a[1]!, restore) === 'unixepoch' ? utcText(a[0]!, '%Y-%m-%d') : undefined));
  s = rewriteCalls(s, 'strftime', (a) => {
    const format = literalOf(a[0] ?? '', restore);
    if (a.length !== 3 || literalOf(a[2]!, restore) !== 'unixepoch' || format === undefined) return undefined;
    return utcText(a[1]!, format);
  });
  // SQLite has no boolean: `sum(v.status = 1)` counts the rows where it holds. PG has no sum(boolean).
  s = rewriteCalls(s, 'sum', (a) => (a.length === 1 && isCondition(a[0]!) ? `sum((${a[0]})::int)` : undefined));
  s = rewriteCalls(s, 'max', (a) => (a.length > 1 ? `greatest(${a.join(', ')})` : undefined));
  s = rewriteCalls(s, 'min', (a) => (a.length > 1 ? `least(${a.join(', ')})` : undefined));
  s = rewriteCalls(s, 'json_extract', (a) => {
    const path = a[1] === undefined ? undefined : literalOf(a[1], restore);
    if (path === undefined || !/^\$(\.\w+)+$/.test(path)) return undefined;
    const keys = path.slice(2).split('.');
    const last = keys.pop()!;
    return `((${a[0]})::json${keys.map((k) => `->${quoteLiteral(k)}`).join('')}->>${quoteLiteral(last)})`;
  });

  s = aliasSubqueries(s);
  s = rowidAsId(s, catalog, restore);

  if (insert?.[1]) {
    const mode = insert[1].toUpperCase();
    s = s.replace(/^INSERT\s+OR\s+\w+\s+INTO/i, 'INSERT INTO');
    let conflict = ' ON CONFLICT DO NOTHING';
    if (mode === 'REPLACE') {
      const pk = catalog.primaryKeys.get(insertTable!);
      const cols = /^INSERT\s+INTO\s+\S+\s*\(([^)]*)\)/i.exec(s)?.[1];
      if (!pk || !cols) throw new Error(`INSERT OR REPLACE needs the primary key and an explicit column list of ${insertTable}: ${sql}`);
      const names = cols.split(',').map((c) => restore(c.trim()));
      const set = names.filter((c) => !pk.includes(c.replace(/^"|"$/g, '')));
      conflict = set.length === 0
        ? ` ON CONFLICT (${pk.join(', ')}) DO NOTHING`
        : ` ON CONFLICT (${pk.join(', ')}) DO UPDATE SET ${set.map((c) => `${c} = excluded.${c}`).join(', ')}`;
    }
    const at = /\bRETURNING\b/i.exec(s);
    s = at ? `${s.slice(0, at.index)}${conflict.trim()} ${s.slice(at.index)}` : s + conflict;
  }

  const returningId = insertTable !== undefined && !hadReturning && catalog.idTables.has(insertTable);
  if (returningId) s += ' RETURNING id';
  const reader = hadReturning || /^(?:SELECT|WITH|VALUES|EXPLAIN|SHOW)\b/i.test(s);
  let explicitId: boolean | undefined;
  let partitionKeySource: number | string | undefined;
  if (insertTable !== undefined) {
    const m = /^INSERT\s+INTO\s+\S+\s*\(([^)]*)\)\s*VALUES\s*\(/i.exec(s);
    const cols = m?.[1]?.split(',').map((c) => restore(c.trim()).replace(/^"|"$/g, '').toLowerCase());
    explicitId = catalog.idTables.has(insertTable) && cols?.includes('id');
    const key = catalog.partitioned?.get(insertTable);
    if (key && m && cols) {
      const open = m.index + m[0].length - 1;
      const values = splitArgs(s, open, closing(s, open));
      const param = /^\$(\d+)$/.exec(values[cols.indexOf(key)] ?? '');
      if (param) partitionKeySource = params[Number(param[1]) - 1];
    }
  }
  return { text: restore(s), params, returningId, reader, beginWrite: false, insertTable, explicitId, partitionKeySource };
}

/** Splits a script on top-level `;` (outside literals and comments), for `exec`. */
export function splitStatements(script: string): string[] {
  const { code, restore } = protect(script);
  return code.split(';').map((part) => restore(part).trim()).filter((part) => part.length > 0);
}
