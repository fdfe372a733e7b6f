{{- define "dp.name" -}}{{ .Release.Name }}-delivery{{- end -}}

{{- define "dp.labels" -}}
app.kubernetes.io/name: delivery-platform
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "dp.required" -}}
{{- $_ := required "publicUrl is required" .Values.publicUrl -}}
{{- $_ := required "database.existingSecret is required (a Secret with DATABASE_URL)" .Values.database.existingSecret -}}
{{- $_ := required "temporal.address is required" .Values.temporal.address -}}
{{- $_ := required "keys.existingSecret is required (JWT_PRIVATE_KEY, JWT_PUBLIC_KEY, MFA_ENCRYPTION_KEY)" .Values.keys.existingSecret -}}
{{- end -}}

{{/* The environment every role shares: settings, the external engines, the shared keys. */}}
{{- define "dp.env" -}}
- name: PUBLIC_URL
  value: {{ .Values.publicUrl | quote }}
- name: DATA_DIR
  value: /data
# Split mode names the shared volume explicitly (it exits 78 without it); the chart mounts it at /data.
- name: GIT_REPOSITORIES_DIR
  value: /data/git
- name: TEMPORAL_ADDRESS
  value: {{ .Values.temporal.address | quote }}
- name: TEMPORAL_NAMESPACE
  value: {{ .Values.temporal.namespace | quote }}
{{- if .Values.temporal.uiUrl }}
- name: TEMPORAL_UI_URL
  value: {{ .Values.temporal.uiUrl | quote }}
{{- end }}
{{- if .Values.temporal.tlsSecret }}
- name: TEMPORAL_TLS_CERT
  value: /etc/temporal-tls/tls.crt
- name: TEMPORAL_TLS_KEY
  value: /etc/temporal-tls/tls.key
- name: TEMPORAL_TLS_CA
  value: /etc/temporal-tls/ca.crt
{{- end }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef: { name: {{ .Values.database.existingSecret | quote }}, key: DATABASE_URL }
{{- range $key := list "JWT_PRIVATE_KEY" "JWT_PUBLIC_KEY" "MFA_ENCRYPTION_KEY" }}
- name: {{ $key }}
  valueFrom:
    secretKeyRef: { name: {{ $.Values.keys.existingSecret | quote }}, key: {{ $key }} }
{{- end }}
{{- range $key, $value := .Values.env }}
- name: {{ $key }}
  value: {{ $value | quote }}
{{- end }}
{{- end -}}

{{- define "dp.envFrom" -}}
{{- if .Values.extraSecretEnv }}
envFrom:
  - secretRef: { name: {{ .Values.extraSecretEnv | quote }} }
{{- end }}
{{- end -}}

{{- define "dp.volumes" -}}
- name: data
  persistentVolumeClaim:
    claimName: {{ .Values.sharedVolume.existingClaim | default (printf "%s-data" (include "dp.name" .)) }}
{{- if .Values.temporal.tlsSecret }}
- name: temporal-tls
  secret: { secretName: {{ .Values.temporal.tlsSecret | quote }} }
{{- end }}
{{- end -}}

{{- define "dp.volumeMounts" -}}
- name: data
  mountPath: /data
{{- if .Values.temporal.tlsSecret }}
- name: temporal-tls
  mountPath: /etc/temporal-tls
  readOnly: true
{{- end }}
{{- end -}}

{{- define "dp.containerSecurity" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: false
capabilities: { drop: ["ALL"] }
{{- end -}}
