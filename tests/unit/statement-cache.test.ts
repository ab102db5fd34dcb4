// The Node host keeps libSQL's prepared statements (worker/db/statement-cache.ts). A kept statement must answer
// exactly as a new one would: after a failed run, after the schema changed under it, with other parameters, on
// two connections at once, and a connection with kept statements still closes.
import { describe, expect, it } from 'vitest';
import Database from 'libsql';
import { openDatabase } from '../../worker/db/node-client';
import { keepPreparedStatements, STATEMENTS_PER_CONNECTION } from '../../worker/db/statement-cache';

describe('kept prepared statements', () => {
  it('answer as fresh ones through errors, schema changes and other parameters', async () => {
    const { client } = openDatabase(':memory:');
    await client.execute('create table t (id integer primary key, name text not null unique)');
    const insert = 'insert into t (id, name) values (?, ?)';
    await client.execute({ sql: insert, args: [1, 'Mắt Biếc'] });
    // The same statement fails on the unique name, then works again with other values.
    await expect(client.execute({ sql: insert, args: [2, 'Mắt Biếc'] })).rejects.toThrow(/UNIQUE/);
    await client.execute({ sql: insert, args: [2, 'Bố Già'] });
    const select = 'select id, name from t where id >= ? order by id';
    expect((await client.execute({ sql: select, args: [1] })).rows.map((r) => r.name)).toEqual(['Mắt Biếc', 'Bố Già']);
    expect((await client.execute({ sql: select, args: [2] })).rows.map((r) => r.name)).toEqual(['Bố Già']);
    // The table is rebuilt under the kept statement (as a migration does): it still reads the new table.
    await client.batch(
      [
        'create table t2 (id integer primary key, name text not null unique, year integer)',
        "insert into t2 (id, name, year) select id, name || ' (mới)', 2019 from t",
        'drop table t',
        'alter table t2 rename to t',
      ],
      'write',
    );
    expect((await client.execute({ sql: select, args: [1] })).rows.map((r) => r.name)).toEqual(['Mắt Biếc (mới)', 'Bố Già (mới)']);
    // Inside a batch (a transaction) too.
    const [one] = await client.batch([{ sql: select, args: [2] }], 'read');
    expect(one!.rows.map((r) => r.name)).toEqual(['Bố Già (mới)']);
    client.close();
  });

  it('are kept per connection, bounded, and the same object is handed back', () => {
    keepPreparedStatements();
    const a = new Database(':memory:');
    const b = new Database(':memory:');
    a.exec('create table t (n integer)');
    b.exec('create table t (n integer)');
    const sql = 'select n from t';
    expect(a.prepare(sql)).toBe(a.prepare(sql));
    expect(a.prepare(sql)).not.toBe(b.prepare(sql));
    a.prepare('insert into t (n) values (7)').run();
    expect(a.prepare(sql).all()).toEqual([{ n: 7 }]);
    expect(b.prepare(sql).all()).toEqual([]);
    const first = a.prepare('select 0 as n');
    for (let i = 1; i <= STATEMENTS_PER_CONNECTION; i++) a.prepare(`select ${i} as n`);
    // The least recently used one was dropped: a new statement, answering the same.
    const again = a.prepare('select 0 as n');
    expect(again).not.toBe(first);
    expect(again.all()).toEqual([{ n: 0 }]);
    a.close();
    b.close();
  });
});
