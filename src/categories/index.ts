import { datapack } from "./datapack/index.ts";
import { dth } from "./dth/index.ts";
import { electricity } from "./electricity/index.ts";
import { india } from "./india/index.ts";
import { internet } from "./internet/index.ts";
import { landline } from "./landline/index.ts";
import { mobile } from "./mobile/index.ts";
import type { AnyCategoryModule } from "./shared/module.ts";
import { water } from "./water/index.ts";

export type { AnyCategoryModule, CategoryModule, Rebuilt, RepeatKit } from "./shared/module.ts";

/**
 * Every category, in menu order: one module each (src/categories/<id>/). The composition root hands
 * these to the bot; the order side of each is also listed in ./orders.ts (the order model uses it).
 */
export const CATEGORY_MODULES: readonly AnyCategoryModule[] = [
  mobile,
  datapack,
  dth,
  internet,
  landline,
  water,
  electricity,
  india,
];
