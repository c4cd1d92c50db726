/** A link's "Copy link" button and one button per network to share it on (a blog post's page, a post in the feed). */
import { useToast } from './ui/toast';
import { copyText, openSharePopup, shareNetworks } from '../lib/share';

interface ShareLinksProps {
  url: string;
  title: string;
  /** Each button's classes. */
  buttonClassName: string;
  /** 'menuitem' when the buttons sit in a menu. */
  buttonRole?: 'menuitem';
  /** Put before each network's name ("Share on "). */
  networkPrefix?: string;
  /** Called once the link is copied or a network's window opened. */
  onShared?: () => void;
}

export function ShareLinks({ url, title, buttonClassName, buttonRole, networkPrefix, onShared }: ShareLinksProps) {
  const { toast } = useToast();
  const networks = shareNetworks(url, title);
  const copy = async () => {
    if (!(await copyText(url))) {
      toast({ title: 'Copy failed', description: 'Unable to copy the link. Please try again.', variant: 'destructive' });
      return;
    }
    toast({ title: 'Link copied!', description: 'The post URL has been copied to your clipboard.' });
    onShared?.();
  };
  return (
    <>
      <button type="button" role={buttonRole} onClick={() => void copy()} className={buttonClassName}>
        Copy link
      </button>
      {networks.map((network) => (
        <button
          key={network.name}
          type="button"
          role={buttonRole}
          onClick={() => {
            openSharePopup(network.href);
            onShared?.();
          }}
          className={buttonClassName}
        >
          {networkPrefix}
          {network.name}
        </button>
      ))}
    </>
  );
}
