import { useState } from 'react';
import { Form, Radio, RadioGroup, Label } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { ErrorNote, Field, Submit, formValues } from '../../components/form';
import { useAction } from '../../components/use-action';
import { wordsOf } from '../../components/words';

const iso = (local: string | undefined) => (local ? new Date(local).toISOString() : null);

/** A one-off window (start and end) or a recurring one (RRULE in an IANA time zone, with a duration). */
export function FreezeForm() {
  const [kind, setKind] = useState('one-off');
  const create = useAction([['governance', 'freezes']]);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <Form
      aria-label="Add a freeze window"
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const v = formValues(form);
        const scope = {
          projects: wordsOf(v.projects ?? ''),
          environments: wordsOf(v.environments ?? ''),
          tenants: wordsOf(v.tenants ?? ''),
        };
        const when =
          kind === 'one-off'
            ? { startsAt: iso(v.startsAt), endsAt: iso(v.endsAt) }
            : { rrule: v.rrule ?? '', timeZone: v.timeZone ?? '', durationMinutes: Number(v.durationMinutes) };
        void create.run(
          () =>
            ok(
              api.POST('/api/v2/freezes', { body: { name: v.name ?? '', reason: v.reason ?? '', ...scope, ...when } }),
            ),
          () => form.reset(),
        );
      }}
    >
      <Field name="name" label="Freeze name" isRequired />
      <Field name="reason" label="Reason" isRequired />
      <RadioGroup value={kind} onChange={setKind} className="field" orientation="horizontal">
        <Label>Kind</Label>
        <Radio value="one-off">One-off</Radio>
        <Radio value="recurring">Recurring</Radio>
      </RadioGroup>
      {kind === 'one-off' ? (
        <>
          <div className="field">
            <label htmlFor="freeze-start">Starts</label>
            <input id="freeze-start" name="startsAt" type="datetime-local" required />
          </div>
          <div className="field">
            <label htmlFor="freeze-end">Ends</label>
            <input id="freeze-end" name="endsAt" type="datetime-local" required />
          </div>
        </>
      ) : (
        <>
          <Field name="rrule" label="Rule (RRULE)" placeholder="FREQ=WEEKLY;BYDAY=FR;BYHOUR=16" isRequired />
          <Field name="timeZone" label="Time zone" defaultValue={zone} isRequired />
          <Field name="durationMinutes" label="Duration (minutes)" inputMode="numeric" isRequired />
        </>
      )}
      <Field name="projects" label="Projects (slugs; empty: all)" />
      <Field name="environments" label="Environments (empty: all)" />
      <Field name="tenants" label="Tenants (empty: all)" />
      <Submit pending={create.pending}>Add freeze</Submit>
      <ErrorNote error={create.error} />
    </Form>
  );
}
