/** The spec's feed role colours: admin red, staff blue, member green, subscriber yellow. */
export const ROLE_COLOUR: Record<string, string> = {
  admin: 'text-red-700 dark:text-red-400',
  staff: 'text-blue-700 dark:text-blue-400',
  member: 'text-green-700 dark:text-green-400',
  subscriber: 'text-yellow-700 dark:text-yellow-300',
};
