
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'routerctl' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'routerctl'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'routerctl' {
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Print the objects the operator would write, ready for `kubectl apply -f -`')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what the operator would change on the live objects')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain every pod-template label and annotation and each record annotation: who owns it and what this reconcile does to it')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Check where requests go: run RouterTest cases against what each router''s data plane would decide')
            [CompletionResult]::new('route', 'route', [CompletionResultType]::ParameterValue, 'Explain where one request goes: the rules tried, why each did not match, the one that did, and the backends in dispatch order')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Prove where every request can go: the request space cut into classes that decide alike, each with a witness request; checks that hold for all requests; the invariants of RouterTest files; and with --against, every class whose destination a change moves')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Replay the requests a router-proxy logged: what the router in -f does with the traffic the cluster really served')
            [CompletionResult]::new('krm', 'krm', [CompletionResultType]::ParameterValue, 'Run as a KRM function: read a ResourceList on stdin, append the rendered objects of every ModelRouter among its items, write it back')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema (draft 2020-12) of a ModelRouter or of a RouterTest file, for editors and kubeconform')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script (bash, zsh, fish, powershell, elvish)')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print a shell completion script (bash, zsh, fish, powershell, elvish)')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print routerctl''s version, the API it reads and the operator behaviour it mirrors')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff), of routerctl or of one of its commands')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'routerctl;render' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for objects that do not name one (default: `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for objects that do not name one (default: `default`)')
            [CompletionResult]::new('--router-proxy-image', '--router-proxy-image', [CompletionResultType]::ParameterName, 'The operator''s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator''s built-in default image, with a warning (an error with --strict)')
            [CompletionResult]::new('--default-litellm-url', '--default-litellm-url', [CompletionResultType]::ParameterName, 'The operator''s --default-litellm-url: the address of litellm backends that set no url')
            [CompletionResult]::new('--operator-version', '--operator-version', [CompletionResultType]::ParameterName, 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster''s operator in cluster mode, else the newest release, v0.9.19. `routerctl version` lists the releases and what changed in each')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value')
            [CompletionResult]::new('--crd', '--crd', [CompletionResultType]::ParameterName, 'The cluster''s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable')
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'Live objects (`kubectl get deploy,svc,cm,sa,role,rolebinding -o yaml`, a YAML stream, a single object, a directory or `-`) to merge into. Repeatable')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context kubectl uses to read the cluster')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'The kubeconfig file kubectl uses to read the cluster')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'How long the whole cluster read may take, every kubectl together (a Go duration such as 30s or 2m, passed to each kubectl as its --request-timeout); what still runs is stopped up to 10s after')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R')
            [CompletionResult]::new('--skip-other-files', '--skip-other-files', [CompletionResultType]::ParameterName, 'Of the files in the directories given to -f (and -t, --against, --crd), read only those whose text has a `kind:` of ModelRouter, InferenceService, ModelPool or RouterTest, and none of a Helm chart''s templates/: a repository''s other YAML and JSON (node_modules, tsconfig.json, CI files, charts) is skipped unread. A file named on its own is always read')
            [CompletionResult]::new('--emit-scrape-annotations', '--emit-scrape-annotations', [CompletionResultType]::ParameterName, 'The operator''s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors')
            [CompletionResult]::new('--live-from-cluster', '--live-from-cluster', [CompletionResultType]::ParameterName, 'Read the live objects from the cluster through kubectl, as `diff` does')
            [CompletionResult]::new('--pass-through', '--pass-through', [CompletionResultType]::ParameterName, 'Print every input object too, as read (the ModelRouters, InferenceServices, anything else), in input order, then the rendered objects: what `kustomize build` with the KRM function gives, for an Argo CD plugin or a Flux build. Left out: objects marked config.kubernetes.io/local-config: "true" and RouterTest files; an input object the operator writes itself is replaced by its rendered form, with a warning')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'routerctl;diff' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for objects that do not name one (default: `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for objects that do not name one (default: `default`)')
            [CompletionResult]::new('--router-proxy-image', '--router-proxy-image', [CompletionResultType]::ParameterName, 'The operator''s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator''s built-in default image, with a warning (an error with --strict)')
            [CompletionResult]::new('--default-litellm-url', '--default-litellm-url', [CompletionResultType]::ParameterName, 'The operator''s --default-litellm-url: the address of litellm backends that set no url')
            [CompletionResult]::new('--operator-version', '--operator-version', [CompletionResultType]::ParameterName, 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster''s operator in cluster mode, else the newest release, v0.9.19. `routerctl version` lists the releases and what changed in each')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value')
            [CompletionResult]::new('--crd', '--crd', [CompletionResultType]::ParameterName, 'The cluster''s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable')
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'Live objects to compare with (as for `render --live`), instead of reading them from the cluster. Repeatable')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context kubectl uses to read the cluster')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'The kubeconfig file kubectl uses to read the cluster')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'How long the whole cluster read may take, every kubectl together (a Go duration such as 30s or 2m, passed to each kubectl as its --request-timeout); what still runs is stopped up to 10s after')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, '`diff`: unified diffs; `json`: the plan per router (objects created, updated, unchanged; whether the pods roll); `markdown`: the plan as a pull-request comment')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, '`diff`: unified diffs; `json`: the plan per router (objects created, updated, unchanged; whether the pods roll); `markdown`: the plan as a pull-request comment')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the diff')
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R')
            [CompletionResult]::new('--skip-other-files', '--skip-other-files', [CompletionResultType]::ParameterName, 'Of the files in the directories given to -f (and -t, --against, --crd), read only those whose text has a `kind:` of ModelRouter, InferenceService, ModelPool or RouterTest, and none of a Helm chart''s templates/: a repository''s other YAML and JSON (node_modules, tsconfig.json, CI files, charts) is skipped unread. A file named on its own is always read')
            [CompletionResult]::new('--emit-scrape-annotations', '--emit-scrape-annotations', [CompletionResultType]::ParameterName, 'The operator''s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'routerctl;explain' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for objects that do not name one (default: `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for objects that do not name one (default: `default`)')
            [CompletionResult]::new('--router-proxy-image', '--router-proxy-image', [CompletionResultType]::ParameterName, 'The operator''s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator''s built-in default image, with a warning (an error with --strict)')
            [CompletionResult]::new('--default-litellm-url', '--default-litellm-url', [CompletionResultType]::ParameterName, 'The operator''s --default-litellm-url: the address of litellm backends that set no url')
            [CompletionResult]::new('--operator-version', '--operator-version', [CompletionResultType]::ParameterName, 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster''s operator in cluster mode, else the newest release, v0.9.19. `routerctl version` lists the releases and what changed in each')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value')
            [CompletionResult]::new('--crd', '--crd', [CompletionResultType]::ParameterName, 'The cluster''s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable')
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'Live objects, as for `render --live`. Repeatable')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context kubectl uses to read the cluster')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'The kubeconfig file kubectl uses to read the cluster')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'How long the whole cluster read may take, every kubectl together (a Go duration such as 30s or 2m, passed to each kubectl as its --request-timeout); what still runs is stopped up to 10s after')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R')
            [CompletionResult]::new('--skip-other-files', '--skip-other-files', [CompletionResultType]::ParameterName, 'Of the files in the directories given to -f (and -t, --against, --crd), read only those whose text has a `kind:` of ModelRouter, InferenceService, ModelPool or RouterTest, and none of a Helm chart''s templates/: a repository''s other YAML and JSON (node_modules, tsconfig.json, CI files, charts) is skipped unread. A file named on its own is always read')
            [CompletionResult]::new('--emit-scrape-annotations', '--emit-scrape-annotations', [CompletionResultType]::ParameterName, 'The operator''s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors')
            [CompletionResult]::new('--live-from-cluster', '--live-from-cluster', [CompletionResultType]::ParameterName, 'Read the live objects from the cluster through kubectl, as `diff` does')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'routerctl;test' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for objects that do not name one (default: `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for objects that do not name one (default: `default`)')
            [CompletionResult]::new('--router-proxy-image', '--router-proxy-image', [CompletionResultType]::ParameterName, 'The operator''s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator''s built-in default image, with a warning (an error with --strict)')
            [CompletionResult]::new('--default-litellm-url', '--default-litellm-url', [CompletionResultType]::ParameterName, 'The operator''s --default-litellm-url: the address of litellm backends that set no url')
            [CompletionResult]::new('--operator-version', '--operator-version', [CompletionResultType]::ParameterName, 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster''s operator in cluster mode, else the newest release, v0.9.19. `routerctl version` lists the releases and what changed in each')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value')
            [CompletionResult]::new('--crd', '--crd', [CompletionResultType]::ParameterName, 'The cluster''s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'RouterTest files (or directories). Repeatable. Without it, the RouterTest documents among the -f files are run')
            [CompletionResult]::new('--tests', '--tests', [CompletionResultType]::ParameterName, 'RouterTest files (or directories). Repeatable. Without it, the RouterTest documents among the -f files are run')
            [CompletionResult]::new('--data-plane', '--data-plane', [CompletionResultType]::ParameterName, 'The data plane whose decisions the cases check')
            [CompletionResult]::new('--min-coverage', '--min-coverage', [CompletionResultType]::ParameterName, 'Fail (exit 1) when the cases reach fewer than this percentage of the rules and the default route')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R')
            [CompletionResult]::new('--skip-other-files', '--skip-other-files', [CompletionResultType]::ParameterName, 'Of the files in the directories given to -f (and -t, --against, --crd), read only those whose text has a `kind:` of ModelRouter, InferenceService, ModelPool or RouterTest, and none of a Helm chart''s templates/: a repository''s other YAML and JSON (node_modules, tsconfig.json, CI files, charts) is skipped unread. A file named on its own is always read')
            [CompletionResult]::new('--emit-scrape-annotations', '--emit-scrape-annotations', [CompletionResultType]::ParameterName, 'The operator''s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors')
            [CompletionResult]::new('--coverage', '--coverage', [CompletionResultType]::ParameterName, 'Print the rules (and the default route) no case reached')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'routerctl;route' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for objects that do not name one (default: `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for objects that do not name one (default: `default`)')
            [CompletionResult]::new('--router-proxy-image', '--router-proxy-image', [CompletionResultType]::ParameterName, 'The operator''s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator''s built-in default image, with a warning (an error with --strict)')
            [CompletionResult]::new('--default-litellm-url', '--default-litellm-url', [CompletionResultType]::ParameterName, 'The operator''s --default-litellm-url: the address of litellm backends that set no url')
            [CompletionResult]::new('--operator-version', '--operator-version', [CompletionResultType]::ParameterName, 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster''s operator in cluster mode, else the newest release, v0.9.19. `routerctl version` lists the releases and what changed in each')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value')
            [CompletionResult]::new('--crd', '--crd', [CompletionResultType]::ParameterName, 'The cluster''s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable')
            [CompletionResult]::new('--router', '--router', [CompletionResultType]::ParameterName, 'The router (`namespace/name`, or a name) when the inputs hold several')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The request body''s `model`')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'A request header, `name=value` (or `name: value`). Repeatable')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A request header, `name=value` (or `name: value`). Repeatable')
            [CompletionResult]::new('--unhealthy', '--unhealthy', [CompletionResultType]::ParameterName, 'A backend that is down (quarantined or failing). Repeatable, or a comma-separated list')
            [CompletionResult]::new('--data-plane', '--data-plane', [CompletionResultType]::ParameterName, 'The data plane whose decision is explained')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R')
            [CompletionResult]::new('--skip-other-files', '--skip-other-files', [CompletionResultType]::ParameterName, 'Of the files in the directories given to -f (and -t, --against, --crd), read only those whose text has a `kind:` of ModelRouter, InferenceService, ModelPool or RouterTest, and none of a Helm chart''s templates/: a repository''s other YAML and JSON (node_modules, tsconfig.json, CI files, charts) is skipped unread. A file named on its own is always read')
            [CompletionResult]::new('--emit-scrape-annotations', '--emit-scrape-annotations', [CompletionResultType]::ParameterName, 'The operator''s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'routerctl;verify' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for objects that do not name one (default: `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for objects that do not name one (default: `default`)')
            [CompletionResult]::new('--router-proxy-image', '--router-proxy-image', [CompletionResultType]::ParameterName, 'The operator''s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator''s built-in default image, with a warning (an error with --strict)')
            [CompletionResult]::new('--default-litellm-url', '--default-litellm-url', [CompletionResultType]::ParameterName, 'The operator''s --default-litellm-url: the address of litellm backends that set no url')
            [CompletionResult]::new('--operator-version', '--operator-version', [CompletionResultType]::ParameterName, 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster''s operator in cluster mode, else the newest release, v0.9.19. `routerctl version` lists the releases and what changed in each')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value')
            [CompletionResult]::new('--crd', '--crd', [CompletionResultType]::ParameterName, 'The cluster''s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'RouterTest files whose `invariants:` are checked for all requests (their `tests:` are `routerctl test`''s). Repeatable')
            [CompletionResult]::new('--tests', '--tests', [CompletionResultType]::ParameterName, 'RouterTest files whose `invariants:` are checked for all requests (their `tests:` are `routerctl test`''s). Repeatable')
            [CompletionResult]::new('--against', '--against', [CompletionResultType]::ParameterName, 'The routers before the change (files or directories, as -f): every class of requests whose decision the change moves is listed. Repeatable')
            [CompletionResult]::new('--data-plane', '--data-plane', [CompletionResultType]::ParameterName, 'The data plane whose decisions are verified')
            [CompletionResult]::new('--emit-tests', '--emit-tests', [CompletionResultType]::ParameterName, 'Write one RouterTest case per class of requests to FILE: today''s behaviour pinned, ready for `routerctl test`')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--max-states', '--max-states', [CompletionResultType]::ParameterName, 'States of the model automata''s products the search may visit')
            [CompletionResult]::new('--max-steps', '--max-steps', [CompletionResultType]::ParameterName, 'Automaton steps the model search may take')
            [CompletionResult]::new('--max-cells', '--max-cells', [CompletionResultType]::ParameterName, 'Cells (header classes × model classes) the request space may have')
            [CompletionResult]::new('--max-decisions', '--max-decisions', [CompletionResultType]::ParameterName, 'Rule evaluations (cells × rules) the cells, then the self-check''s requests, may take to decide')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds the whole run may take; the search and every check after it stop there, incomplete, and so does each router whose turn comes later')
            [CompletionResult]::new('--max-memory', '--max-memory', [CompletionResultType]::ParameterName, 'MiB of memory the process may hold; the search and every check after it stop before, incomplete, and model automata that would not fit are not built')
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R')
            [CompletionResult]::new('--skip-other-files', '--skip-other-files', [CompletionResultType]::ParameterName, 'Of the files in the directories given to -f (and -t, --against, --crd), read only those whose text has a `kind:` of ModelRouter, InferenceService, ModelPool or RouterTest, and none of a Helm chart''s templates/: a repository''s other YAML and JSON (node_modules, tsconfig.json, CI files, charts) is skipped unread. A file named on its own is always read')
            [CompletionResult]::new('--emit-scrape-annotations', '--emit-scrape-annotations', [CompletionResultType]::ParameterName, 'The operator''s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors')
            [CompletionResult]::new('--allow-incomplete', '--allow-incomplete', [CompletionResultType]::ParameterName, 'A search that spends a budget is a warning, not a failure: the report says what it covered, and the run may still pass')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'routerctl;replay' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for objects that do not name one (default: `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for objects that do not name one (default: `default`)')
            [CompletionResult]::new('--router-proxy-image', '--router-proxy-image', [CompletionResultType]::ParameterName, 'The operator''s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator''s built-in default image, with a warning (an error with --strict)')
            [CompletionResult]::new('--default-litellm-url', '--default-litellm-url', [CompletionResultType]::ParameterName, 'The operator''s --default-litellm-url: the address of litellm backends that set no url')
            [CompletionResult]::new('--operator-version', '--operator-version', [CompletionResultType]::ParameterName, 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster''s operator in cluster mode, else the newest release, v0.9.19. `routerctl version` lists the releases and what changed in each')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value')
            [CompletionResult]::new('--crd', '--crd', [CompletionResultType]::ParameterName, 'The cluster''s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'A router-proxy log (`kubectl logs deploy/NAME-router-proxy`), or `-` for stdin. Repeatable')
            [CompletionResult]::new('--counts', '--counts', [CompletionResultType]::ParameterName, 'Requests counted where the logs are kept (CSV or JSON lines: model, classification, taskComplexity, count; optionally rule, backend, outcome). Repeatable')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'With --from-cluster: only the lines of the last DURATION (a Go duration such as 24h or 90m, passed to `kubectl logs --since`). Default: all the pods still hold')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context kubectl uses to read the cluster')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'The kubeconfig file kubectl uses to read the cluster')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'How long the whole cluster read may take, every kubectl together (a Go duration such as 30s or 2m, passed to each kubectl as its --request-timeout); what still runs is stopped up to 10s after')
            [CompletionResult]::new('--against', '--against', [CompletionResultType]::ParameterName, 'The routers before the change (files or directories, as -f): what the change moves and the drift are reported apart')
            [CompletionResult]::new('--router', '--router', [CompletionResultType]::ParameterName, 'The router whose log it is (`namespace/name`, or a name) when the inputs hold several')
            [CompletionResult]::new('--top', '--top', [CompletionResultType]::ParameterName, 'The groups shown in the text and Markdown reports, the largest first')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R')
            [CompletionResult]::new('--skip-other-files', '--skip-other-files', [CompletionResultType]::ParameterName, 'Of the files in the directories given to -f (and -t, --against, --crd), read only those whose text has a `kind:` of ModelRouter, InferenceService, ModelPool or RouterTest, and none of a Helm chart''s templates/: a repository''s other YAML and JSON (node_modules, tsconfig.json, CI files, charts) is skipped unread. A file named on its own is always read')
            [CompletionResult]::new('--emit-scrape-annotations', '--emit-scrape-annotations', [CompletionResultType]::ParameterName, 'The operator''s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors')
            [CompletionResult]::new('--from-cluster', '--from-cluster', [CompletionResultType]::ParameterName, 'Read the router-proxy''s log from the cluster through kubectl: every replica of the router''s proxy (`kubectl logs -l` by the Deployment''s selector), within --request-timeout, as `diff` reads')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'routerctl;krm' {
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'routerctl;schema' {
            [CompletionResult]::new('--operator-version', '--operator-version', [CompletionResultType]::ParameterName, 'The LLMKube operator release whose CRD the ModelRouter schema follows: a field the release does not have is refused. Default: the newest release (v0.9.19). Not for `routertest`, which is the same for every release')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'routerctl;completions' {
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'routerctl;completion' {
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'routerctl;version' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (as `kubectl version -o json|yaml`); plain text when unset')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (as `kubectl version -o json|yaml`); plain text when unset')
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'routerctl;man' {
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings and no progress (errors still go to stderr)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what is being done: each router rendered, and the time taken')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'routerctl;help' {
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Print the objects the operator would write, ready for `kubectl apply -f -`')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what the operator would change on the live objects')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain every pod-template label and annotation and each record annotation: who owns it and what this reconcile does to it')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Check where requests go: run RouterTest cases against what each router''s data plane would decide')
            [CompletionResult]::new('route', 'route', [CompletionResultType]::ParameterValue, 'Explain where one request goes: the rules tried, why each did not match, the one that did, and the backends in dispatch order')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Prove where every request can go: the request space cut into classes that decide alike, each with a witness request; checks that hold for all requests; the invariants of RouterTest files; and with --against, every class whose destination a change moves')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Replay the requests a router-proxy logged: what the router in -f does with the traffic the cluster really served')
            [CompletionResult]::new('krm', 'krm', [CompletionResultType]::ParameterValue, 'Run as a KRM function: read a ResourceList on stdin, append the rendered objects of every ModelRouter among its items, write it back')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema (draft 2020-12) of a ModelRouter or of a RouterTest file, for editors and kubeconform')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script (bash, zsh, fish, powershell, elvish)')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print routerctl''s version, the API it reads and the operator behaviour it mirrors')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff), of routerctl or of one of its commands')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'routerctl;help;render' {
            break
        }
        'routerctl;help;diff' {
            break
        }
        'routerctl;help;explain' {
            break
        }
        'routerctl;help;test' {
            break
        }
        'routerctl;help;route' {
            break
        }
        'routerctl;help;verify' {
            break
        }
        'routerctl;help;replay' {
            break
        }
        'routerctl;help;krm' {
            break
        }
        'routerctl;help;schema' {
            break
        }
        'routerctl;help;completions' {
            break
        }
        'routerctl;help;version' {
            break
        }
        'routerctl;help;man' {
            break
        }
        'routerctl;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
