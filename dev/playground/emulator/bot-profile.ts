// The bot's profile texts, as Telegram keeps them: the description (shown in an empty chat, up to
// 512 characters) and the short description (the profile page and shared links, up to 120), each
// per language code with a default for every other language. Set with setMyDescription /
// setMyShortDescription, read back with the get methods (no language: the default; a language
// with none of its own: the default too, as Telegram answers).
import { z } from "zod";
import { badRequest, type Handler, parse } from "./bot-checks.ts";
import type { EmulatorCore } from "./core.ts";

export type ProfileText = "description" | "short_description";

const LIMITS: Record<ProfileText, number> = { description: 512, short_description: 120 };

const setSchema = (field: ProfileText) =>
  z.looseObject({
    [field]: z.string().optional(),
    language_code: z.string().optional(),
  });
const getSchema = z.looseObject({ language_code: z.string().optional() });

/** The key a text is kept under: "description", "description|ne", ... */
export function profileKey(field: ProfileText, languageCode?: string): string {
  if (!languageCode) return field;
  if (!/^[a-z]{2}$/.test(languageCode)) throw badRequest("invalid language code specified");
  return `${field}|${languageCode}`;
}

function setter(field: ProfileText): Handler {
  return (core: EmulatorCore, params) => {
    const p = parse(setSchema(field), params) as Record<string, string | undefined>;
    const value = p[field] ?? "";
    if (value.length > LIMITS[field]) throw badRequest(`${field.toUpperCase()}_INVALID`);
    const key = profileKey(field, p.language_code);
    if (value === "") core.profileTexts.delete(key);
    else core.profileTexts.set(key, value);
    core.changed(undefined);
    return true;
  };
}

function getter(field: ProfileText): Handler {
  return (core: EmulatorCore, params) => {
    const p = parse(getSchema, params);
    const own = core.profileTexts.get(profileKey(field, p.language_code));
    return { [field]: own ?? core.profileTexts.get(field) ?? "" };
  };
}

export const profileHandlers: Record<string, Handler> = {
  setMyDescription: setter("description"),
  getMyDescription: getter("description"),
  setMyShortDescription: setter("short_description"),
  getMyShortDescription: getter("short_description"),
};
