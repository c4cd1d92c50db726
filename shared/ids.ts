/** Every id this site makes is a UUID (`crypto.randomUUID`). */
const UUID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/iu;

export const isUuid = (id: string) => UUID.test(id);
