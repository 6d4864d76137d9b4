// What a device may do now, as the rules on the server say (a snapshot's `allowed`, with each
// action's choices). A screen asks its context (`ctx.may`, `ctx.choices`, made from here) and
// draws its buttons from the answer: it never works a rule out.

/** The action of `type` open to the device `snapshot` was made for, whose fields match
 * `fields`, or null. */
export function may(snapshot, type, fields = {}) {
  return snapshot?.allowed?.find((a) => a.type === type
    && Object.entries(fields).every(([k, v]) => a[k] === v)) ?? null;
}

/** The choices `key` (`psychics`, `groups`, `cards`…) of the action `type`, or none. */
export function choices(snapshot, type, key, fields = {}) {
  return may(snapshot, type, fields)?.[key] ?? [];
}
