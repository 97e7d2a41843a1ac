import type { Redis } from "ioredis";
import { keyspace } from "../redis/keyspace.ts";
import { parseOrder } from "./redis-codec.ts";
import { indexMembers } from "./search.ts";

/**
 * The search index (search.ts) for orders created before the create script wrote it: SCAN the
 * order keys, read each JSON, ZADD its three members. Safe to run while the product runs and to
 * run again (ZADD of a member already there changes nothing; orders created meanwhile are indexed
 * by their own create). On a Cluster, give it a connection to the master that holds the {money}
 * slot (`CLUSTER KEYSLOT "{money}"`): SCAN sees one node's keys. Returns how many members it added.
 */
export async function backfillSearchIndex(
  redis: Redis,
  prefix: string,
  batch = 1_000,
): Promise<number> {
  const k = keyspace(prefix);
  const node = redis;
  let cursor = "0";
  let added = 0;
  do {
    const [next, keys] = await node.scan(cursor, "MATCH", k.order("*"), "COUNT", batch);
    cursor = next;
    if (keys.length === 0) continue;
    const pipe = node.pipeline();
    for (const key of keys) pipe.hget(key, "j");
    const members: Array<string | number> = [];
    for (const [err, json] of (await pipe.exec()) ?? []) {
      if (err) throw err;
      if (typeof json === "string")
        for (const m of indexMembers(parseOrder(json))) members.push(0, m);
    }
    if (members.length > 0) added += await node.zadd(k.orderSearch, ...members);
  } while (cursor !== "0");
  return added;
}
