import { luaScript } from "../redis/scripts.ts";

/** The link store's steps that must read and write in one go (accounts/links.ts). */

/**
 * Deletes an offer only while it is the one judged (its hash): an offer that replaced it between
 * the read and the delete stays, and the old code, right as it was, finds no offer.
 */
export const dropOffer = luaScript<"offer", number>(
  "raLinkDropOffer",
  ["offer"],
  `
if redis.call('HGET', KEYS[1], 'hash') == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`,
);

/**
 * Deletes the stub a try on no offer leaves (the counted try made a hash with `tries` alone) only
 * while it is still one: an offer written meanwhile (a new code, asked on another instance between
 * the read and this delete) stays, and its code works.
 */
export const dropStub = luaScript<"offer", number>(
  "raLinkDropStub",
  ["offer"],
  `
if redis.call('HEXISTS', KEYS[1], 'hash') == 0 then return redis.call('DEL', KEYS[1]) end
return 0
`,
);

/** Replaces a hash field's value only while it is ARGV[2] (the link as read). */
export const swapLink = luaScript<"links", number>(
  "raLinkSwap",
  ["links"],
  `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  return 1
end
return 0
`,
);

/**
 * Deletes a channel's link only while it is to ARGV[2] (the id before any `!` mark or `|` seal):
 * the owner's chosen join ends, never one the channel made to another account since the list.
 */
export const unlinkFrom = luaScript<"links", number>(
  "raLinkUnlinkFrom",
  ["links"],
  `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if v and string.match(v, '^[^!|]*') == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0
`,
);
