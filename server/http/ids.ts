import { fail } from '../../shared/domain';
import { isUuid } from '../../shared/ids';

/** An id from a path: anything but a UUID names something that does not exist (404 `notFound`), not a malformed request. */
export function knownId(id: string, notFound: string): string {
  if (!isUuid(id)) throw fail.notFound(notFound);
  return id.toLowerCase();
}
