/** The texts' key of an event name (`message.created` → `message_created`: a dot would split the i18n key). */
export const eventKey = (event: string) => event.replace(/\./g, '_');
