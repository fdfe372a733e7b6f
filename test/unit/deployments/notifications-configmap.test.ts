import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/**
 * The argocd-notifications-cm that docs/webhooks.md ships follows the stock catalog (argoproj/argo-cd
 * notifications_catalog/install.yaml, copied in test/fixtures/argocd): each trigger is a catalog trigger's condition
 * with the catalog's `oncePer`, the degraded and sync-failed triggers are there, all are subscribed, and the template
 * posts the controller webhook's fields with a whole-second timestamp.
 */
const ROOT = path.resolve(__dirname, '../../..');

interface Condition {
  when: string;
  oncePer?: string;
  send: string[];
}
type ConfigMap = { data: Record<string, string> };

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

function documented(): ConfigMap {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/webhooks.md'), 'utf8');
  const block = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? '')
    .find((text) => text.includes('name: argocd-notifications-cm'));
  if (!block) throw new Error('no argocd-notifications-cm block in docs/webhooks.md');
  return parse(block) as ConfigMap;
}

function triggers(cm: ConfigMap): Map<string, Condition[]> {
  return new Map(
    Object.entries(cm.data)
      .filter(([key]) => key.startsWith('trigger.'))
      .map(([key, value]) => [key.slice('trigger.'.length), parse(value) as Condition[]]),
  );
}

const catalog = triggers(
  parse(
    fs.readFileSync(path.join(ROOT, 'test/fixtures/argocd/notifications-catalog-install.yaml'), 'utf8'),
  ) as ConfigMap,
);
const shipped = documented();
const ours = triggers(shipped);

describe('the documented argocd-notifications-cm', () => {
  it('uses only catalog conditions, each with the catalog oncePer', () => {
    expect(ours.size).toBeGreaterThan(0);
    for (const [name, conditions] of ours) {
      for (const condition of conditions) {
        const stock = [...catalog].find(([, cs]) => cs.some((c) => norm(c.when) === norm(condition.when)));
        expect({ name, stock: stock?.[0] ?? null }).toEqual({ name, stock: expect.any(String) });
        const stockCondition = stock![1].find((c) => norm(c.when) === norm(condition.when))!;
        expect({ name, oncePer: condition.oncePer }).toEqual({ name, oncePer: stockCondition.oncePer });
        expect(condition.send).toEqual(['delivery-platform-status']);
      }
    }
  });

  it('reports deployed, degraded and failed syncs, and subscribes every trigger', () => {
    const stockOf = (name: string) => norm(catalog.get(name)![0]!.when);
    const whens = [...ours.values()].flat().map((c) => norm(c.when));
    for (const stock of ['on-deployed', 'on-health-degraded', 'on-sync-failed'])
      expect(whens).toContain(stockOf(stock));
    const subscriptions = parse(shipped.data.subscriptions ?? '') as { recipients: string[]; triggers: string[] }[];
    expect(subscriptions.flatMap((s) => s.triggers).sort()).toEqual([...ours.keys()].sort());
  });

  it('posts the webhook fields with a whole-second UTC timestamp', () => {
    const template = parse(shipped.data['template.delivery-platform-status'] ?? '') as {
      webhook: { 'delivery-platform': { method: string; body: string } };
    };
    const body = template.webhook['delivery-platform'].body;
    for (const field of [
      '.app.metadata.name',
      '.app.status.sync.status',
      '.app.status.sync.revision',
      '.app.status.health.status',
    ]) {
      expect(body).toContain(field);
    }
    expect(body).toContain('Format "2006-01-02T15:04:05Z"');
  });
});
