import {
  addMoneyButtonData,
  flowButtons,
  heldTopUpButton,
  historyPageButton,
  languageButton,
  leaveButton,
  menuButton,
  repeatButton,
  saveNameButton,
} from "../../src/bot/callback-data.ts";

/**
 * Every kind of button the codec (src/bot/callback-data.ts) builds, for the test that no two
 * overlap: a button added there is added here.
 */
export const VALUE_BUTTONS = {
  menu: menuButton,
  language: languageButton,
  repeat: repeatButton,
  historyPage: historyPageButton,
  saveName: saveNameButton,
  leave: leaveButton,
  value: flowButtons.value,
  page: flowButtons.page,
  edit: flowButtons.edit,
  heldTopUp: heldTopUpButton,
} as const;
export const CONSTANT_BUTTONS = {
  keep: flowButtons.keep,
  back: flowButtons.back,
  cancel: flowButtons.cancel,
  confirm: flowButtons.confirm,
  retry: flowButtons.retry,
  addMoney: addMoneyButtonData,
} as const;
