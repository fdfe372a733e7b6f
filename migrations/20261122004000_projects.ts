import type { Knex } from 'knex';

/**
 * Projects and what they deliver: the project's environments (picked from the organization's catalogue, each with a
 * Kubernetes version), its tenants (tied to the organization's tenant catalogue), its workloads with their overrides,
 * and the project policy record (validation policy of delivery generation). The hosted Git repository lives on disk
 * (src/gitops/repository-store.ts), not in the database.
 */
type Table = Knex.CreateTableBuilder;

function timestamps(knex: Knex, t: Table): void {
  t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
}

/** A row of one project: its id, the organization and the project (both cascade). */
function ofProject(knex: Knex, t: Table): void {
  t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
  t.uuid('project_id').notNullable();
  t.foreign(['project_id', 'organization_id'])
    .references(['id', 'organization_id'])
    .inTable('projects')
    .onDelete('CASCADE');
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('projects', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('slug').notNullable();
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.timestamp('archived_at', { useTz: true });
    timestamps(knex, t);
    t.unique(['organization_id', 'slug']);
    t.unique(['id', 'organization_id']);
  });

  await knex.schema.createTable('project_policies', (t) => {
    t.uuid('project_id').primary().references('projects.id').onDelete('CASCADE');
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('validation_errors').notNullable().defaultTo('block');
    t.text('validation_deprecations').notNullable().defaultTo('warn');
    timestamps(knex, t);
  });
  await knex.raw(
    "ALTER TABLE project_policies ADD CONSTRAINT project_policies_errors_ck CHECK (validation_errors IN ('block','warn'))",
  );
  await knex.raw(
    "ALTER TABLE project_policies ADD CONSTRAINT project_policies_deprecations_ck CHECK (validation_deprecations IN ('block','warn'))",
  );

  await knex.schema.createTable('project_environments', (t) => {
    ofProject(knex, t);
    t.uuid('environment_id').notNullable().references('org_environments.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('kubernetes_version').notNullable();
    t.boolean('validate_on_preview').notNullable().defaultTo(true);
    t.boolean('validate_on_generate').notNullable().defaultTo(true);
    timestamps(knex, t);
    t.unique(['project_id', 'environment_id']);
  });

  await knex.schema.createTable('project_tenants', (t) => {
    ofProject(knex, t);
    t.uuid('org_tenant_id').notNullable().references('org_tenants.id').onDelete('CASCADE');
    t.text('slug').notNullable();
    t.text('name').notNullable();
    timestamps(knex, t);
    t.unique(['project_id', 'slug']);
    t.unique(['project_id', 'org_tenant_id']);
  });

  await knex.schema.createTable('workloads', (t) => {
    ofProject(knex, t);
    t.text('name').notNullable();
    // Image, ports, replicas, resources, probes, variables (src/projects/workload-spec.ts).
    t.jsonb('spec').notNullable();
    // {environments: {<env>: override}, tenants: {<tenant slug>: {<env>: override}}}
    t.jsonb('overrides').notNullable().defaultTo('{}');
    timestamps(knex, t);
    t.unique(['project_id', 'name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('workloads');
  await knex.schema.dropTable('project_tenants');
  await knex.schema.dropTable('project_environments');
  await knex.schema.dropTable('project_policies');
  await knex.schema.dropTable('projects');
}
