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
{{- $_ := required "bucket.name is required (REGISTRY_S3_BUCKET: DATA_DIR is per pod, so registry blobs need the bucket)" .Values.bucket.name -}}
{{- if .Values.migrations.enabled }}
{{- $_ := required "database.migrationSecret is required (a Secret with the database owner's DATABASE_URL, for the migrations Job)" .Values.database.migrationSecret -}}
{{- end }}
{{- end -}}

{{/* The environment every role shares: settings, the external engines, the shared keys. */}}
{{- define "dp.env" -}}
- name: PUBLIC_URL
  value: {{ .Values.publicUrl | quote }}
# DATA_DIR is the pod's own emptyDir; the shared volume is mounted only at GIT_REPOSITORIES_DIR (split mode exits 78
# without the setting).
- name: DATA_DIR
  value: {{ .Values.dataDir.path | quote }}
- name: GIT_REPOSITORIES_DIR
  value: {{ .Values.gitRepositoriesDir | quote }}
- name: REGISTRY_S3_BUCKET
  value: {{ .Values.bucket.name | quote }}
- name: REGISTRY_S3_REGION
  value: {{ .Values.bucket.region | quote }}
{{- if .Values.bucket.endpoint }}
- name: REGISTRY_S3_ENDPOINT
  value: {{ .Values.bucket.endpoint | quote }}
{{- end }}
{{- if .Values.bucket.prefix }}
- name: REGISTRY_S3_PREFIX
  value: {{ .Values.bucket.prefix | quote }}
{{- end }}
{{- if ne (toString .Values.bucket.forcePathStyle) "" }}
- name: REGISTRY_S3_FORCE_PATH_STYLE
  value: {{ .Values.bucket.forcePathStyle | toString | quote }}
{{- end }}
{{- if .Values.bucket.existingSecret }}
{{- range $key := list "REGISTRY_S3_ACCESS_KEY_ID" "REGISTRY_S3_SECRET_ACCESS_KEY" }}
- name: {{ $key }}
  valueFrom:
    secretKeyRef: { name: {{ $.Values.bucket.existingSecret | quote }}, key: {{ $key }} }
{{- end }}
{{- end }}
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
  emptyDir:
    sizeLimit: {{ .Values.dataDir.sizeLimit }}
- name: git
  persistentVolumeClaim:
    claimName: {{ .Values.sharedVolume.existingClaim | default (printf "%s-data" (include "dp.name" .)) }}
{{- if .Values.temporal.tlsSecret }}
- name: temporal-tls
  secret: { secretName: {{ .Values.temporal.tlsSecret | quote }} }
{{- end }}
{{- end -}}

{{- define "dp.volumeMounts" -}}
- name: data
  mountPath: {{ .Values.dataDir.path | quote }}
- name: git
  mountPath: {{ .Values.gitRepositoriesDir | quote }}
  {{- if .Values.sharedVolume.subPath }}
  subPath: {{ .Values.sharedVolume.subPath | quote }}
  {{- end }}
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

{{/* A PodDisruptionBudget for one component (api or worker): voluntary disruptions take at most maxUnavailable. */}}
{{- define "dp.pdb" -}}
{{- $root := index . 0 -}}
{{- $component := index . 1 -}}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "dp.name" $root }}-{{ $component }}
  labels:
    {{- include "dp.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ $component }}
spec:
  maxUnavailable: {{ (index $root.Values $component).maxUnavailable }}
  selector:
    matchLabels:
      app.kubernetes.io/instance: {{ $root.Release.Name }}
      app.kubernetes.io/component: {{ $component }}
{{- end -}}
