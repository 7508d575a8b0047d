/** Spec 002 §9: the file list's loading notice shows once a load has taken this long. */
export const LIST_LOADING_NOTICE_MS = 300;
/** Spec 002 §4/§9: the upload form resets this long after success or failure. */
export const UPLOAD_RESET_MS = 3000;

/** Spec 002 §8 messages. */
export const LOADING_NOTICE = 'Loading file list from server, please wait.';
export const UPLOAD_COMPLETE = 'Upload complete.';
export const UPLOAD_FAILED = 'Something went wrong';
export const NAME_TAKEN = 'This name is already taken';
