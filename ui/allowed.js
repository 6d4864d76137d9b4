// What this device may do now, as the rules on the server say (`snapshot.allowed`, with
// each action's choices). Screens draw their buttons from here and never work a rule out.

import { state } from './context.js';

/** The action of `type` open to this device now whose fields match `fields`, or null. */
export function may(type, fields = {}) {
  return state.game?.snapshot?.allowed?.find((a) => a.type === type
    && Object.entries(fields).every(([k, v]) => a[k] === v)) ?? null;
}

/** The choices `key` (`psychics`, `groups`, `cards`…) of the action `type`, or none. */
export function choices(type, key, fields = {}) {
  return may(type, fields)?.[key] ?? [];
}
