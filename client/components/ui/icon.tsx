/** Line icons: one markup with the server's public pages (shared/ui/icon.tsx). */
export { Icon, type IconName } from '../../../shared/ui/icon';
