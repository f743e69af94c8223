// What the end user is told when a turn cannot be answered as asked (the `notice` frame).

/** The engine failed or hung. */
export const ENGINE_FAILED_NOTICE = 'The avatar could not answer right now. Please try again in a moment.';
/** The engine failed partway through its answer: what was shown is marked cut (decision 614). */
export const ANSWER_CUT_NOTICE = "The avatar's answer was cut off. Please try again.";
/** The answer came but its voice could not be made (the TTS failed or hung). */
export const SPEECH_FAILED_NOTICE = "The avatar's voice is not available right now; its answer is shown as text.";
/** The STT failed or hung on what the user said. */
export const RECOGNITION_FAILED_NOTICE = 'The avatar could not hear that. Please say it again or type it.';
