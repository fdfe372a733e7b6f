/**
 * A namespaced Widget CRD (widgets.example.com, version v1) for validation tests: `schema` is the YAML lines under
 * `openAPIV3Schema: {type: object}` (indented by 8 spaces), e.g. its `properties`.
 */
export function widgetCrd(schema: string[]): string {
  return [
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    'metadata: {name: widgets.example.com}',
    'spec:',
    '  group: example.com',
    '  scope: Namespaced',
    '  names: {kind: Widget, plural: widgets}',
    '  versions:',
    '  - name: v1',
    '    served: true',
    '    storage: true',
    '    schema:',
    '      openAPIV3Schema:',
    '        type: object',
    ...schema,
  ].join('\n');
}
