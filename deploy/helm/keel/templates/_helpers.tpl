{{- define "keel.fullname" -}}
{{- if contains "keel" .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-keel" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "keel.labels" -}}
app.kubernetes.io/name: keel
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- /* The prefix of every Secret the processes read: the release's, or the operator's existing ones. */ -}}
{{- define "keel.secretPrefix" -}}
{{- if .Values.secrets.create -}}{{ include "keel.fullname" . }}{{- else -}}{{ required "secrets.existingSecret is required when secrets.create is false" .Values.secrets.existingSecret }}{{- end -}}
{{- end -}}

{{- define "keel.image" -}}
{{ printf "%s:%s-%s" .root.Values.image.repository (.tag | default .root.Values.image.tag) .target }}
{{- end -}}
