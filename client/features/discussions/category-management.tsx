/**
 * The dashboard's Discussions tab: staff open, rename, describe, colour and delete the categories topics go in. A
 * category that still holds topics is not deleted: the server says so (409) and the message is shown.
 */
import { useId, useState } from 'react';
import { DialogActions } from '../../components/dialog-window';
import { FormDialog } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/page-header';
import { useToast } from '../../components/ui/toast';
import { ApiError, errorMessage } from '../../lib/api';
import { useCategories, useCategoryCommands, type Category, type CategoryFields } from './api';
import { CategoriesState, CategoryMark, fieldClass } from './parts';

/** The colours offered first: distinct from each other and readable beside text in both themes. */
const SUGGESTED_COLOURS = ['#b91c1c', '#c2410c', '#a16207', '#15803d', '#0f766e', '#1d4ed8', '#6d28d9', '#be185d', '#475569'];

function CategoryDialog({ category, onClose }: { category: Category | null; onClose: () => void }) {
  const colourError = `${useId()}-color-error`;
  const { toast } = useToast();
  const commands = useCategoryCommands();
  const [fields, setFields] = useState<CategoryFields>({
    name: category?.name ?? '',
    description: category?.description ?? '',
    color: category?.color ?? SUGGESTED_COLOURS[5]!,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const saving = commands.create.isPending || commands.update.isPending;
  const save = () => {
    if (!fields.name.trim()) {
      setErrors({ name: 'Give the category a name' });
      return;
    }
    const body = { ...fields, name: fields.name.trim(), description: fields.description.trim() };
    const options = {
      onSuccess: () => {
        toast({ title: category ? 'Category saved' : 'Category created' });
        onClose();
      },
      onError: (error: Error) => {
        if (error instanceof ApiError) setErrors(error.fields);
        setFailure(errorMessage(error, 'The category could not be saved. Please try again.'));
      },
    };
    if (category) commands.update.mutate({ id: category.id, ...body }, options);
    else commands.create.mutate(body, options);
  };
  const invalid = (name: keyof CategoryFields) => (errors[name] ? { 'aria-invalid': true as const, 'aria-describedby': colourError } : {});

  return (
    <FormDialog onClose={onClose} title={category ? 'Edit category' : 'New category'} width="lg" className="mt-4 space-y-4" onSubmit={save}>
      <FormField label="Name" error={errors.name}>
        {(control) => (
          <input
            {...control}
            value={fields.name}
            maxLength={60}
            autoFocus
            onChange={(event) => setFields({ ...fields, name: event.target.value })}
            className={fieldClass}
          />
        )}
      </FormField>
      <FormField label="Description" error={errors.description}>
        {(control) => (
          <textarea
            {...control}
            value={fields.description}
            maxLength={500}
            rows={3}
            onChange={(event) => setFields({ ...fields, description: event.target.value })}
            className={`${fieldClass} py-2`}
          />
        )}
      </FormField>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Colour</legend>
        <div className="flex flex-wrap items-center gap-2">
          {SUGGESTED_COLOURS.map((colour) => (
            <button
              key={colour}
              type="button"
              aria-label={`Colour ${colour}`}
              aria-pressed={fields.color.toLowerCase() === colour}
              onClick={() => setFields({ ...fields, color: colour })}
              className="size-11 rounded-md border-2 border-transparent outline-none focus-visible:ring-2 focus-visible:ring-amber-500 focus-visible:ring-offset-2 aria-pressed:border-slate-900 dark:aria-pressed:border-white"
              style={{ backgroundColor: colour }}
            />
          ))}
          <label className="flex min-h-11 items-center gap-2 text-sm">
            Other
            <input
              type="color"
              value={fields.color}
              onChange={(event) => setFields({ ...fields, color: event.target.value })}
              className="h-11 w-14 cursor-pointer rounded-md border border-slate-300 bg-white dark:border-slate-600 dark:bg-slate-900"
              {...invalid('color')}
            />
          </label>
        </div>
        {errors.color && (
          <p id={colourError} className="text-sm text-red-700 dark:text-red-400">
            {errors.color}
          </p>
        )}
        <p className="text-sm">
          Preview: <CategoryMark name={fields.name || 'Category'} color={fields.color} className="text-sm font-medium" />
        </p>
      </fieldset>
      {failure && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {failure}
        </p>
      )}
      <DialogActions
        onCancel={onClose}
        isDisabled={saving}
        confirmLabel={saving ? 'Saving...' : category ? 'Save category' : 'Create category'}
      />
    </FormDialog>
  );
}

export function CategoryManagement() {
  const categories = useCategories();
  const commands = useCategoryCommands();
  const { toast } = useToast();
  const [editing, setEditing] = useState<Category | 'new' | null>(null);
  const remove = (category: Category) => {
    if (!window.confirm(`Delete the category “${category.name}”?`)) return;
    commands.remove.mutate(category.id, {
      onSuccess: () => toast({ title: 'Category deleted' }),
      onError: (error) =>
        toast({
          title: 'Could not delete the category',
          description: errorMessage(error, 'Please try again.'),
          variant: 'destructive',
        }),
    });
  };
  return (
    <section aria-labelledby="categories-heading" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="categories-heading" className="text-xl font-semibold">
            Discussion categories
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">Every topic goes in one. A category with topics cannot be deleted.</p>
        </div>
        <Button onPress={() => setEditing('new')}>New category</Button>
      </div>
      <CategoriesState categories={categories}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState title="No categories yet">Create the first one: members then start topics in it.</EmptyState>
          ) : (
            <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
              {list.map((category) => (
                <li key={category.id} className="flex flex-wrap items-center gap-3 p-4">
                  <div className="min-w-0 flex-1 basis-56">
                    <CategoryMark name={category.name} color={category.color} className="text-base font-semibold" />
                    {category.description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{category.description}</p>}
                    <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                      {category.topicCount} {category.topicCount === 1 ? 'topic' : 'topics'}
                    </p>
                  </div>
                  <div className="flex gap-2">
                    <Button variant="secondary" aria-label={`Edit ${category.name}`} onPress={() => setEditing(category)}>
                      Edit
                    </Button>
                    <Button
                      variant="secondary"
                      aria-label={`Delete ${category.name}`}
                      isDisabled={commands.remove.isPending}
                      onPress={() => remove(category)}
                    >
                      Delete
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </CategoriesState>
      {editing && <CategoryDialog category={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </section>
  );
}
