/**
 * The blog's rich-text editor (TipTap on ProseMirror), for staff only: blog-management.tsx imports it lazily, so it
 * is a chunk of its own that readers never load. It reads a post's stored HTML and gives back the HTML the blog keeps
 * (shared/blog/sanitize.ts has the last word on the server): headings, lists, quotes, code, links, pictures from
 * uploads with alt text and YouTube videos, with Markdown shortcuts as one types (`## `, `- `, `1. `, `> `, ```).
 */
import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { getHTMLFromFragment, type Editor } from '@tiptap/core';
import { Fragment } from '@tiptap/pm/model';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import {
  Button as AriaButton,
  FieldError,
  FileTrigger,
  Group,
  Input,
  Label,
  Separator,
  Text,
  TextField,
  ToggleButton,
  Toolbar,
} from 'react-aria-components';
import { PICTURE_TYPES } from '../../../components/cover-image-picker';
import { DialogActions, DialogWindow } from '../../../components/dialog-window';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { SizedPicture } from '../../../components/upload-view';
import { errorMessage } from '../../../lib/api';
import { youtubeEmbedSource } from '../../../../shared/blog/embeds';
import { mediaFile, pictureSize, uploadMedia } from '../api';
import { altFromFileName, isAllowedLink, postHtml } from '../formatting';
import { blogExtensions } from './extensions';
import { cleanWordHtml } from './word-paste';

export interface RichTextEditorProps {
  /** The post's stored HTML when the editor opens (later changes of it are not read back). */
  initialContent: string;
  onChange: (html: string) => void;
  /** While a picture uploads (the post should not be saved meanwhile). */
  onBusyChange: (busy: boolean) => void;
  /** Names the editor (the id of its label). */
  labelledBy: string;
  describedBy: string;
  invalid: boolean;
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/u.test(navigator.platform);
const shortcut = (key: string) => (isMac ? `⌘${key}` : `Ctrl+${key}`);
const NOT_A_PICTURE = 'Choose a picture: a JPEG, PNG, WebP or HEIC image.';

/** The editor's document as the blog stores it: a block on each line, without the empty paragraphs a reader never sees. */
function htmlOf(editor: Editor): string {
  const blocks: string[] = [];
  editor.state.doc.forEach((node) => {
    if (node.type.name !== 'paragraph' || node.content.size > 0) blocks.push(getHTMLFromFragment(Fragment.from(node), editor.schema));
  });
  return postHtml(blocks);
}

const toolClass =
  'inline-flex min-h-11 min-w-11 items-center justify-center rounded px-2 text-sm outline-none hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-amber-500 disabled:opacity-50 pointer-fine:min-h-9 pointer-fine:min-w-9 dark:hover:bg-slate-800';
const pressedClass =
  'data-[selected]:bg-brand-600 data-[selected]:text-white dark:data-[selected]:bg-amber-accent dark:data-[selected]:text-slate-950';

function Tool({
  label,
  keys,
  selected,
  onPress,
  children,
}: {
  label: string;
  keys?: string;
  selected: boolean;
  onPress: () => void;
  children: ReactNode;
}) {
  return (
    <ToggleButton
      aria-label={label}
      aria-keyshortcuts={keys?.replace('⌘', 'Meta+')}
      // A tooltip for the pointer: the name and its keys.
      {...{ title: keys ? `${label} (${keys})` : label }}
      isSelected={selected}
      onChange={onPress}
      className={`${toolClass} ${pressedClass}`}
    >
      {children}
    </ToggleButton>
  );
}

function Action({ label, keys, onPress, children }: { label: string; keys?: string; onPress: () => void; children: ReactNode }) {
  return (
    <AriaButton
      aria-label={label}
      aria-keyshortcuts={keys?.replace('⌘', 'Meta+')}
      {...{ title: keys ? `${label} (${keys})` : label }}
      onPress={onPress}
      className={toolClass}
    >
      {children}
    </AriaButton>
  );
}

/** A tool's picture: a 24×24 line drawing, as the site's icons are. */
function ToolIcon({ path }: { path: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      className="size-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={path} />
    </svg>
  );
}

/** A small dialog of the editor: one field, its hint, and what pressing Enter does. */
function FieldDialog({
  title,
  label,
  hint,
  initial,
  type = 'text',
  validate,
  submitLabel,
  onSubmit,
  onClose,
  extra,
  children,
}: {
  title: string;
  label: string;
  hint: string;
  initial: string;
  type?: 'text' | 'url';
  validate: (value: string) => string | null;
  submitLabel: string;
  onSubmit: (value: string) => void;
  onClose: () => void;
  extra?: ReactNode;
  children?: ReactNode;
}) {
  const [value, setValue] = useState(initial);
  const [touched, setTouched] = useState(false);
  const problem = validate(value);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setTouched(true);
    if (!problem) onSubmit(value.trim());
  };
  return (
    <DialogWindow onClose={onClose} title={title} place="top" overlayClassName="pt-[15vh]">
      {/* Its own form: the post's form around the editor must not be sent by this one's Enter. */}
      <form onSubmit={submit} className="mt-3 space-y-3">
        {children}
        <TextField
          autoFocus
          type={type}
          value={value}
          onChange={setValue}
          isInvalid={touched && problem !== null}
          validationBehavior="aria"
          className="flex flex-col gap-1"
        >
          <Label className="text-sm font-medium">{label}</Label>
          <Input
            onBlur={() => setTouched(true)}
            className="min-h-11 rounded-md border border-slate-300 bg-white px-3 text-base outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30 dark:border-slate-600 dark:bg-slate-900"
          />
          <Text slot="description" className="text-xs text-slate-600 dark:text-slate-400">
            {hint}
          </Text>
          <FieldError className="text-sm text-red-600 dark:text-red-400">{problem}</FieldError>
        </TextField>
        <DialogActions onCancel={onClose} confirmLabel={submitLabel}>
          {extra}
        </DialogActions>
      </form>
    </DialogWindow>
  );
}

interface PendingPicture {
  src: string;
  width?: number | undefined;
  height?: number | undefined;
  alt: string;
}

type Asking = { kind: 'link'; href: string } | { kind: 'video' } | { kind: 'picture'; picture: PendingPicture } | null;

export default function RichTextEditor({ initialContent, onChange, onBusyChange, labelledBy, describedBy, invalid }: RichTextEditorProps) {
  const { toast } = useToast();
  const [asking, setAsking] = useState<Asking>(null);
  const [uploading, setUploading] = useState(false);
  const askForLink = useRef<() => void>(() => {});
  /** The editor, for its own paste handler (set once it exists). */
  const pasted = useRef<Editor | null>(null);
  const extensions = useMemo(() => blogExtensions(() => askForLink.current()), []);
  const editor = useEditor({
    extensions,
    content: initialContent,
    // The first render is the browser's: no server rendering here.
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelledBy,
        'aria-describedby': describedBy,
        'aria-invalid': String(invalid),
        spellcheck: 'true',
        class:
          'blog-content blog-editor min-h-64 space-y-3 px-4 py-3 leading-relaxed outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-amber-500',
      },
      // What a word processor adds besides the markup; the schema then keeps only the blog's own elements.
      transformPastedHTML: cleanWordHtml,
      // A YouTube address pasted on its own becomes the video.
      handlePaste: (_view, event): boolean => {
        const text = event.clipboardData?.getData('text/plain')?.trim() ?? '';
        if (event.clipboardData?.getData('text/html') || !youtubeEmbedSource(text)) return false;
        return pasted.current?.chain().focus().insertYoutube(text).run() ?? false;
      },
    },
    onUpdate: ({ editor: changed }) => onChange(htmlOf(changed)),
  });

  pasted.current = editor;
  useEffect(() => {
    editor.setOptions({
      editorProps: {
        ...editor.options.editorProps,
        attributes: { ...(editor.options.editorProps.attributes as Record<string, string>), 'aria-invalid': String(invalid) },
      },
    });
  }, [editor, invalid]);
  useEffect(() => onBusyChange(uploading), [uploading, onBusyChange]);

  /**
   * Opens one of the editor's dialogs: the editor takes focus first (ProseMirror's own focus, at once),
   * so the dialog gives it back there when it closes, whichever button opened it.
   */
  const ask = (next: NonNullable<Asking>) => {
    // Not when it has focus already: ProseMirror's focus writes its own selection over one the browser has not told it of yet.
    if (!editor.view.hasFocus()) editor.view.focus();
    setAsking(next);
  };
  askForLink.current = () => ask({ kind: 'link', href: (editor.getAttributes('link').href as string | undefined) ?? '' });

  const active = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      code: current.isActive('code'),
      h2: current.isActive('heading', { level: 2 }),
      h3: current.isActive('heading', { level: 3 }),
      bulleted: current.isActive('bulletList'),
      numbered: current.isActive('orderedList'),
      quote: current.isActive('blockquote'),
      codeBlock: current.isActive('codeBlock'),
      link: current.isActive('link'),
    }),
  });

  const run = () => editor.chain().focus();
  const closeDialog = () => {
    setAsking(null);
    // Back to where the author was writing.
    editor.commands.focus();
  };

  const choosePicture = async (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    setUploading(true);
    try {
      const media = await uploadMedia(file);
      if (media.kind !== 'image') {
        toast({ title: 'Could not use the file', description: NOT_A_PICTURE, variant: 'destructive' });
        return;
      }
      // The blog's own size (1600 wide, never upscaled); its width and height as the file has them.
      const src = mediaFile(media, 'blog.webp');
      const size = await pictureSize(src).catch(() => ({ width: media.width, height: media.height }));
      ask({ kind: 'picture', picture: { src, ...size, alt: altFromFileName(file.name) } });
    } catch (error) {
      toast({ title: 'Could not upload the picture', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
    } finally {
      setUploading(false);
    }
  };

  return (
    <div
      className={`rounded-md border bg-white dark:bg-slate-900 ${invalid ? 'border-red-600' : 'border-slate-300 dark:border-slate-600'}`}
    >
      <Toolbar
        aria-label="Formatting"
        className="sticky top-0 z-10 flex flex-wrap items-center gap-0.5 rounded-t-md border-b border-slate-200 bg-slate-50 p-1 dark:border-slate-700 dark:bg-slate-800"
      >
        <Group aria-label="Text" className="contents">
          <Tool label="Bold" keys={shortcut('B')} selected={active.bold} onPress={() => run().toggleBold().run()}>
            <b>B</b>
          </Tool>
          <Tool label="Italic" keys={shortcut('I')} selected={active.italic} onPress={() => run().toggleItalic().run()}>
            <i className="font-serif">I</i>
          </Tool>
          <Tool label="Link" keys={shortcut('K')} selected={active.link} onPress={() => askForLink.current()}>
            <span className="underline">Link</span>
          </Tool>
          <Tool label="Inline code" selected={active.code} onPress={() => run().toggleCode().run()}>
            <code className="font-mono">{'<>'}</code>
          </Tool>
        </Group>
        <Separator orientation="vertical" className="mx-1 hidden h-6 w-px bg-slate-300 sm:block dark:bg-slate-600" />
        <Group aria-label="Blocks" className="contents">
          <Tool label="H2 heading" selected={active.h2} onPress={() => run().toggleHeading({ level: 2 }).run()}>
            H2
          </Tool>
          <Tool label="H3 subheading" selected={active.h3} onPress={() => run().toggleHeading({ level: 3 }).run()}>
            H3
          </Tool>
          <Tool label="Bulleted list" selected={active.bulleted} onPress={() => run().toggleBulletList().run()}>
            <ToolIcon path="M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01" />
          </Tool>
          <Tool label="Numbered list" selected={active.numbered} onPress={() => run().toggleOrderedList().run()}>
            <ToolIcon path="M10 6h10M10 12h10M10 18h10M4 4.5h1.5V9M4 9h3M4 14.5a1.5 1.5 0 0 1 3 .5L4 19h3" />
          </Tool>
          <Tool label="Quote" selected={active.quote} onPress={() => run().toggleBlockquote().run()}>
            <ToolIcon path="M5 17c2 0 4-1.5 4-4V7H4v6h5M15 17c2 0 4-1.5 4-4V7h-5v6h5" />
          </Tool>
          <Tool label="Code block" selected={active.codeBlock} onPress={() => run().toggleCodeBlock().run()}>
            <code className="font-mono">{'{ }'}</code>
          </Tool>
        </Group>
        <Separator orientation="vertical" className="mx-1 hidden h-6 w-px bg-slate-300 sm:block dark:bg-slate-600" />
        <Group aria-label="Insert" className="contents">
          <FileTrigger acceptedFileTypes={PICTURE_TYPES} onSelect={(files) => void choosePicture(files)}>
            <AriaButton isDisabled={uploading} className={toolClass}>
              {uploading ? 'Uploading…' : 'Picture'}
            </AriaButton>
          </FileTrigger>
          <Action label="YouTube video" onPress={() => ask({ kind: 'video' })}>
            Video
          </Action>
        </Group>
      </Toolbar>
      <div className="max-h-[60vh] overflow-y-auto">
        <EditorContent editor={editor} />
      </div>

      {asking?.kind === 'link' && (
        <FieldDialog
          title={asking.href ? 'Edit link' : 'Add link'}
          label="Link address"
          hint="A web address (https://…) or a mailto: address."
          type="url"
          initial={asking.href || 'https://'}
          validate={(value) => (isAllowedLink(value) ? null : 'Enter an address starting with https://, http:// or mailto:')}
          submitLabel={asking.href ? 'Save link' : 'Add link'}
          onClose={closeDialog}
          extra={
            asking.href ? (
              <Button
                variant="secondary"
                onPress={() => {
                  setAsking(null);
                  run().extendMarkRange('link').unsetLink().run();
                }}
              >
                Remove link
              </Button>
            ) : null
          }
          onSubmit={(href) => {
            setAsking(null);
            const chain = run().extendMarkRange('link');
            // With nothing selected, the address itself is the link's text.
            if (editor.state.selection.empty && !editor.isActive('link')) {
              chain.insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] }).run();
            } else {
              chain.setLink({ href }).run();
              // Writing goes on after the link, as in a word processor, not over it.
              editor.commands.setTextSelection(editor.state.selection.to);
            }
          }}
        />
      )}
      {asking?.kind === 'video' && (
        <FieldDialog
          title="Add a YouTube video"
          label="Video address"
          hint="The video’s address on YouTube (youtube.com/watch?v=… or youtu.be/…). It plays without cookies until the reader presses play."
          type="url"
          initial=""
          validate={(value) => (youtubeEmbedSource(value) ? null : 'Enter the address of a YouTube video.')}
          submitLabel="Add video"
          onClose={closeDialog}
          onSubmit={(address) => {
            setAsking(null);
            run().insertYoutube(address).run();
          }}
        />
      )}
      {asking?.kind === 'picture' && (
        <FieldDialog
          title="Add a picture"
          label="Alt text"
          hint="What the picture shows, for readers who cannot see it."
          initial={asking.picture.alt}
          validate={(value) => (value.trim() ? null : 'Describe the picture for readers who cannot see it.')}
          submitLabel="Add picture"
          onClose={closeDialog}
          onSubmit={(alt) => {
            const { src, width, height } = asking.picture;
            setAsking(null);
            run()
              .insertContent({ type: 'paragraph', content: [{ type: 'image', attrs: { src, width, height, alt } }] })
              .run();
          }}
        >
          <SizedPicture src={asking.picture.src} size={asking.picture} alt="" className="max-h-40 w-auto rounded object-contain" />
        </FieldDialog>
      )}
    </div>
  );
}
