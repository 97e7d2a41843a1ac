/**
 * Ids of the conversations entered by a command or a button rather than the category menu: the
 * one module the feature folders share (a command enters another feature's conversation by id).
 */
export const STATUS_FLOW = "status";
export const REPEAT_FLOW = "repeat";
export const ADD_MONEY_FLOW = "addmoney";
export const CASHIN_FLOW = "cashin";
export const CREDIT_FLOW = "credit";
export const REVERSE_FLOW = "reverse";
export const SAVED_FLOW = "saved";
export const SAVE_NAME_FLOW = "savename";
export const HISTORY_SEARCH_FLOW = "historysearch";
export const COMPLAIN_FLOW = "complain";
export const COMPLAINT_ANSWER_FLOW = "complaintanswer";
export const PARTIAL_REFUND_FLOW = "partialrefund";
export const SETTLE_FLOW = "settle";
