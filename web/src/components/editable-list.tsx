import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { ConfirmAction } from './confirm-action';
import { DataTable, type Column } from './data-table';
import { ErrorNote } from './form';
import { QueryState } from './query-state';
import { FieldForm, type FieldSpec, type FieldValues } from './field-form';
import { useAction } from './use-action';

/**
 * Rows of one kind with their whole life cycle: a "New" form, an edit form per row (its saved values filled in) and a
 * delete that asks for the row's name typed back. The named queries refresh after each change.
 */
export function EditableList<T>(props: {
  /** Singular name of the kind, e.g. "approval policy". */
  noun: string;
  label: string;
  rows: T[];
  rowKey: (row: T) => string;
  nameOf: (row: T) => string;
  columns: Column<T>[];
  fields: FieldSpec[];
  /** The form to edit a row; without it rows are added and deleted only. */
  editFields?: FieldSpec[];
  valuesOf?: (row: T) => FieldValues;
  create: (values: FieldValues) => Promise<unknown>;
  update?: (row: T, values: FieldValues) => Promise<unknown>;
  remove: (row: T) => Promise<unknown>;
  invalidate: unknown[][];
  empty: string;
}) {
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const save = useAction(props.invalidate);
  const remove = useAction(props.invalidate);
  const edited = props.rows.find((r) => props.rowKey(r) === editing);
  const { update, valuesOf } = props;
  const columns: Column<T>[] = [
    ...props.columns,
    {
      header: 'Actions',
      cell: (row) => (
        <div className="confirm">
          {update && (
            <Button
              className="button"
              aria-label={`Edit ${props.nameOf(row)}`}
              onPress={() => {
                save.setError(null);
                setAdding(false);
                setEditing(props.rowKey(row));
              }}
            >
              Edit
            </Button>
          )}
          <ConfirmAction
            verb="Delete"
            name={props.nameOf(row)}
            pending={remove.pending}
            onConfirm={() => remove.run(() => props.remove(row))}
          />
        </div>
      ),
    },
  ];
  return (
    <>
      {props.rows.length === 0 ? (
        <p className="empty">{props.empty}</p>
      ) : (
        <DataTable label={props.label} rows={props.rows} rowKey={props.rowKey} columns={columns} />
      )}
      <ErrorNote error={remove.error} />
      {edited && update && valuesOf ? (
        <FieldForm
          key={props.rowKey(edited)}
          label={`Edit ${props.noun} ${props.nameOf(edited)}`}
          submit="Save changes"
          fields={props.editFields ?? props.fields}
          initial={valuesOf(edited)}
          action={save}
          send={(values) => update(edited, values)}
          onDone={() => setEditing(null)}
          onCancel={() => setEditing(null)}
        />
      ) : adding ? (
        <FieldForm
          label={`New ${props.noun}`}
          submit={`Create ${props.noun}`}
          fields={props.fields}
          action={save}
          send={props.create}
          onDone={() => setAdding(false)}
          onCancel={() => setAdding(false)}
        />
      ) : (
        <Button
          className="button"
          onPress={() => {
            save.setError(null);
            setAdding(true);
          }}
        >
          New {props.noun}
        </Button>
      )}
    </>
  );
}

type ListProps<T> = Parameters<typeof EditableList<T>>[0];

/** An EditableList of a page of named rows with ids (policies and the like), with the page's loading and error states. */
export function EditablePage<T extends { id: string; name: string }>(
  props: Omit<ListProps<T>, 'rows' | 'rowKey' | 'nameOf'> & { query: UseQueryResult<{ items: T[] }> },
) {
  const { query, ...rest } = props;
  return (
    <QueryState query={query}>
      {(page) => <EditableList {...rest} rows={page.items} rowKey={(r) => r.id} nameOf={(r) => r.name} />}
    </QueryState>
  );
}
