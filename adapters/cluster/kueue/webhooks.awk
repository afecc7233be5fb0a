# Rewrites Kueue's webhook configurations (kubectl kustomize of its
# config/components/webhook) for a Kueue manager serving on this machine:
# keeps only the webhooks of Kueue's own kinds and of batch/v1 Jobs (the
# manager serves only the integrations it is configured with; a webhook it
# does not serve would fail every matching request), points each at
# url = https://127.0.0.1:PORT/<path> with the CA bundle given, drops the
# webhook Service and prefixes the configurations' names with "kueue-" as
# Kueue's own install does.
#
#   kubectl kustomize DIR | awk -v port=9443 -v cabundle=BASE64 -f webhooks.awk

function flush_item(   i, n, path, out, incc) {
	if (nitem == 0)
		return
	path = ""
	for (i = 1; i <= nitem; i++)
		if (item[i] ~ /^      path: /) {
			path = item[i]
			sub(/^      path: /, "", path)
		}
	if (path ~ /kueue-x-k8s-io/ || path ~ /batch-v1-job$/) {
		incc = 0
		for (i = 1; i <= nitem; i++) {
			if (item[i] ~ /^  clientConfig:/) {
				doc = doc item[i] "\n    caBundle: " cabundle "\n    url: https://127.0.0.1:" port path "\n"
				incc = 1
				continue
			}
			if (incc && item[i] ~ /^    /)
				continue
			incc = 0
			doc = doc item[i] "\n"
		}
	}
	nitem = 0
}

function flush_doc() {
	flush_item()
	if (doc != "" && doc !~ /\nkind: Service\n/ && doc !~ /^kind: Service\n/)
		printf "---\n%s", doc
	doc = ""
	inhooks = 0
}

/^---/ { flush_doc(); next }
/^webhooks:/ { inhooks = 1; doc = doc $0 "\n"; next }
inhooks && /^- / { flush_item(); item[++nitem] = $0; next }
inhooks && nitem > 0 && /^  / { item[++nitem] = $0; next }
{
	flush_item()
	inhooks = 0
	line = $0
	if (line ~ /^  name: (mutating|validating)-webhook-configuration$/)
		sub(/name: /, "name: kueue-", line)
	doc = doc line "\n"
}
END { flush_doc() }
