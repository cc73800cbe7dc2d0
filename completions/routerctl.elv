
use builtin;
use str;

set edit:completion:arg-completer[routerctl] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'routerctl'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'routerctl'= {
            cand --message-format 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format'
            cand -q 'Print no warnings and no progress (errors still go to stderr)'
            cand --quiet 'Print no warnings and no progress (errors still go to stderr)'
            cand -v 'Say what is being done: each router rendered, and the time taken'
            cand --verbose 'Say what is being done: each router rendered, and the time taken'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand render 'Print the objects the operator would write, ready for `kubectl apply -f -`'
            cand diff 'Show what the operator would change on the live objects'
            cand explain 'Explain every pod-template label and annotation and each record annotation: who owns it and what this reconcile does to it'
            cand test 'Check where requests go: run RouterTest cases against what each router''s data plane would decide'
            cand route 'Explain where one request goes: the rules tried, why each did not match, the one that did, and the backends in dispatch order'
            cand verify 'Prove where every request can go: the request space cut into classes that decide alike, each with a witness request; checks that hold for all requests; the invariants of RouterTest files; and with --against, every class whose destination a change moves'
            cand krm 'Run as a KRM function: read a ResourceList on stdin, append the rendered objects of every ModelRouter among its items, write it back'
            cand schema 'Print the JSON Schema (draft 2020-12) of a ModelRouter or of a RouterTest file, for editors and kubeconform'
            cand completions 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
            cand completion 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
            cand version 'Print routerctl''s version, the API it reads and the operator behaviour it mirrors'
            cand man 'Print the man page (roff), of routerctl or of one of its commands'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'routerctl;render'= {
            cand -f 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable'
            cand --filename 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable'
            cand -n 'Namespace for objects that do not name one (default: `default`)'
            cand --namespace 'Namespace for objects that do not name one (default: `default`)'
            cand --router-proxy-image 'The operator''s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator''s built-in default image, with a warning (an error with --strict)'
            cand --default-litellm-url 'The operator''s --default-litellm-url: the address of litellm backends that set no url'
            cand --operator-version 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster''s operator in cluster mode, else the newest release, v0.9.19. `routerctl version` lists the releases and what changed in each'
            cand -j 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value'
            cand --jobs 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value'
            cand --crd 'The cluster''s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable'
            cand --live 'Live objects (`kubectl get deploy,svc,cm,sa,role,rolebinding -o yaml`, a YAML stream, a single object, a directory or `-`) to merge into. Repeatable'
            cand --context 'The kubeconfig context kubectl uses to read the live objects'
            cand --kubeconfig 'The kubeconfig file kubectl uses to read the live objects'
            cand --request-timeout 'How long the whole cluster read may take, every kubectl together (a Go duration such as 30s or 2m, passed to each kubectl as its --request-timeout); what still runs is stopped up to 10s after'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --message-format 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format'
            cand -R 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R'
            cand --recursive 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R'
            cand --emit-scrape-annotations 'The operator''s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)'
            cand --strict 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors'
            cand --live-from-cluster 'Read the live objects from the cluster through kubectl, as `diff` does'
            cand --pass-through 'Print every input object too, as read (the ModelRouters, InferenceServices, anything else), in input order, then the rendered objects: what `kustomize build` with the KRM function gives, for an Argo CD plugin or a Flux build. Left out: objects marked config.kubernetes.io/local-config: "true" and RouterTest files; an input object the operator writes itself is replaced by its rendered form, with a warning'
            cand -q 'Print no warnings and no progress (errors still go to stderr)'
            cand --quiet 'Print no warnings and no progress (errors still go to stderr)'
            cand -v 'Say what is being done: each router rendered, and the time taken'
            cand --verbose 'Say what is being done: each router rendered, and the time taken'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'routerctl;diff'= {
            cand -f 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable'
            cand --filename 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable'
            cand -n 'Namespace for objects that do not name one (default: `default`)'
            cand --namespace 'Namespace for objects that do not name one (default: `default`)'
            cand --router-proxy-image 'The operator''s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator''s built-in default image, with a warning (an error with --strict)'
            cand --default-litellm-url 'The operator''s --default-litellm-url: the address of litellm backends that set no url'
            cand --operator-version 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster''s operator in cluster mode, else the newest release, v0.9.19. `routerctl version` lists the releases and what changed in each'
            cand -j 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value'
            cand --jobs 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value'
            cand --crd 'The cluster''s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable'
            cand --live 'Live objects to compare with (as for `render --live`), instead of reading them from the cluster. Repeatable'
            cand --context 'The kubeconfig context kubectl uses to read the live objects'
            cand --kubeconfig 'The kubeconfig file kubectl uses to read the live objects'
            cand --request-timeout 'How long the whole cluster read may take, every kubectl together (a Go duration such as 30s or 2m, passed to each kubectl as its --request-timeout); what still runs is stopped up to 10s after'
            cand -o '`diff`: unified diffs; `json`: the plan per router (objects created, updated, unchanged; whether the pods roll)'
            cand --output '`diff`: unified diffs; `json`: the plan per router (objects created, updated, unchanged; whether the pods roll)'
            cand --color 'When to colour the diff'
            cand --message-format 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format'
            cand -R 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R'
            cand --recursive 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R'
            cand --emit-scrape-annotations 'The operator''s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)'
            cand --strict 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors'
            cand -q 'Print no warnings and no progress (errors still go to stderr)'
            cand --quiet 'Print no warnings and no progress (errors still go to stderr)'
            cand -v 'Say what is being done: each router rendered, and the time taken'
            cand --verbose 'Say what is being done: each router rendered, and the time taken'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'routerctl;explain'= {
            cand -f 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable'
            cand --filename 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable'
            cand -n 'Namespace for objects that do not name one (default: `default`)'
            cand --namespace 'Namespace for objects that do not name one (default: `default`)'
            cand --router-proxy-image 'The operator''s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator''s built-in default image, with a warning (an error with --strict)'
            cand --default-litellm-url 'The operator''s --default-litellm-url: the address of litellm backends that set no url'
            cand --operator-version 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster''s operator in cluster mode, else the newest release, v0.9.19. `routerctl version` lists the releases and what changed in each'
            cand -j 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value'
            cand --jobs 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value'
            cand --crd 'The cluster''s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable'
            cand --live 'Live objects, as for `render --live`. Repeatable'
            cand --context 'The kubeconfig context kubectl uses to read the live objects'
            cand --kubeconfig 'The kubeconfig file kubectl uses to read the live objects'
            cand --request-timeout 'How long the whole cluster read may take, every kubectl together (a Go duration such as 30s or 2m, passed to each kubectl as its --request-timeout); what still runs is stopped up to 10s after'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --message-format 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format'
            cand -R 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R'
            cand --recursive 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R'
            cand --emit-scrape-annotations 'The operator''s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)'
            cand --strict 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors'
            cand --live-from-cluster 'Read the live objects from the cluster through kubectl, as `diff` does'
            cand -q 'Print no warnings and no progress (errors still go to stderr)'
            cand --quiet 'Print no warnings and no progress (errors still go to stderr)'
            cand -v 'Say what is being done: each router rendered, and the time taken'
            cand --verbose 'Say what is being done: each router rendered, and the time taken'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'routerctl;test'= {
            cand -f 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable'
            cand --filename 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable'
            cand -n 'Namespace for objects that do not name one (default: `default`)'
            cand --namespace 'Namespace for objects that do not name one (default: `default`)'
            cand --router-proxy-image 'The operator''s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator''s built-in default image, with a warning (an error with --strict)'
            cand --default-litellm-url 'The operator''s --default-litellm-url: the address of litellm backends that set no url'
            cand --operator-version 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster''s operator in cluster mode, else the newest release, v0.9.19. `routerctl version` lists the releases and what changed in each'
            cand -j 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value'
            cand --jobs 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value'
            cand --crd 'The cluster''s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable'
            cand -t 'RouterTest files (or directories). Repeatable. Without it, the RouterTest documents among the -f files are run'
            cand --tests 'RouterTest files (or directories). Repeatable. Without it, the RouterTest documents among the -f files are run'
            cand --data-plane 'The data plane whose decisions the cases check'
            cand --min-coverage 'Fail (exit 1) when the cases reach fewer than this percentage of the rules and the default route'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --message-format 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format'
            cand -R 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R'
            cand --recursive 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R'
            cand --emit-scrape-annotations 'The operator''s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)'
            cand --strict 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors'
            cand --coverage 'Print the rules (and the default route) no case reached'
            cand -q 'Print no warnings and no progress (errors still go to stderr)'
            cand --quiet 'Print no warnings and no progress (errors still go to stderr)'
            cand -v 'Say what is being done: each router rendered, and the time taken'
            cand --verbose 'Say what is being done: each router rendered, and the time taken'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'routerctl;route'= {
            cand -f 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable'
            cand --filename 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable'
            cand -n 'Namespace for objects that do not name one (default: `default`)'
            cand --namespace 'Namespace for objects that do not name one (default: `default`)'
            cand --router-proxy-image 'The operator''s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator''s built-in default image, with a warning (an error with --strict)'
            cand --default-litellm-url 'The operator''s --default-litellm-url: the address of litellm backends that set no url'
            cand --operator-version 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster''s operator in cluster mode, else the newest release, v0.9.19. `routerctl version` lists the releases and what changed in each'
            cand -j 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value'
            cand --jobs 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value'
            cand --crd 'The cluster''s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable'
            cand --router 'The router (`namespace/name`, or a name) when the inputs hold several'
            cand --model 'The request body''s `model`'
            cand -H 'A request header, `name=value` (or `name: value`). Repeatable'
            cand --header 'A request header, `name=value` (or `name: value`). Repeatable'
            cand --unhealthy 'A backend that is down (quarantined or failing). Repeatable, or a comma-separated list'
            cand --data-plane 'The data plane whose decision is explained'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --message-format 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format'
            cand -R 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R'
            cand --recursive 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R'
            cand --emit-scrape-annotations 'The operator''s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)'
            cand --strict 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors'
            cand -q 'Print no warnings and no progress (errors still go to stderr)'
            cand --quiet 'Print no warnings and no progress (errors still go to stderr)'
            cand -v 'Say what is being done: each router rendered, and the time taken'
            cand --verbose 'Say what is being done: each router rendered, and the time taken'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'routerctl;verify'= {
            cand -f 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable'
            cand --filename 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable'
            cand -n 'Namespace for objects that do not name one (default: `default`)'
            cand --namespace 'Namespace for objects that do not name one (default: `default`)'
            cand --router-proxy-image 'The operator''s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator''s built-in default image, with a warning (an error with --strict)'
            cand --default-litellm-url 'The operator''s --default-litellm-url: the address of litellm backends that set no url'
            cand --operator-version 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster''s operator in cluster mode, else the newest release, v0.9.19. `routerctl version` lists the releases and what changed in each'
            cand -j 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value'
            cand --jobs 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value'
            cand --crd 'The cluster''s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable'
            cand -t 'RouterTest files whose `invariants:` are checked for all requests (their `tests:` are `routerctl test`''s). Repeatable'
            cand --tests 'RouterTest files whose `invariants:` are checked for all requests (their `tests:` are `routerctl test`''s). Repeatable'
            cand --against 'The routers before the change (files or directories, as -f): every class of requests whose decision the change moves is listed. Repeatable'
            cand --data-plane 'The data plane whose decisions are verified'
            cand --emit-tests 'Write one RouterTest case per class of requests to FILE: today''s behaviour pinned, ready for `routerctl test`'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --message-format 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format'
            cand -R 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R'
            cand --recursive 'Read the directories given to -f (and --live) with their subdirectories, as kubectl''s -R'
            cand --emit-scrape-annotations 'The operator''s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)'
            cand --strict 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors'
            cand -q 'Print no warnings and no progress (errors still go to stderr)'
            cand --quiet 'Print no warnings and no progress (errors still go to stderr)'
            cand -v 'Say what is being done: each router rendered, and the time taken'
            cand --verbose 'Say what is being done: each router rendered, and the time taken'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'routerctl;krm'= {
            cand --message-format 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format'
            cand -q 'Print no warnings and no progress (errors still go to stderr)'
            cand --quiet 'Print no warnings and no progress (errors still go to stderr)'
            cand -v 'Say what is being done: each router rendered, and the time taken'
            cand --verbose 'Say what is being done: each router rendered, and the time taken'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'routerctl;schema'= {
            cand --operator-version 'The LLMKube operator release whose CRD the ModelRouter schema follows: a field the release does not have is refused. Default: the newest release (v0.9.19). Not for `routertest`, which is the same for every release'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --message-format 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format'
            cand -q 'Print no warnings and no progress (errors still go to stderr)'
            cand --quiet 'Print no warnings and no progress (errors still go to stderr)'
            cand -v 'Say what is being done: each router rendered, and the time taken'
            cand --verbose 'Say what is being done: each router rendered, and the time taken'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'routerctl;completions'= {
            cand --message-format 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format'
            cand -q 'Print no warnings and no progress (errors still go to stderr)'
            cand --quiet 'Print no warnings and no progress (errors still go to stderr)'
            cand -v 'Say what is being done: each router rendered, and the time taken'
            cand --verbose 'Say what is being done: each router rendered, and the time taken'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'routerctl;completion'= {
            cand --message-format 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format'
            cand -q 'Print no warnings and no progress (errors still go to stderr)'
            cand --quiet 'Print no warnings and no progress (errors still go to stderr)'
            cand -v 'Say what is being done: each router rendered, and the time taken'
            cand --verbose 'Say what is being done: each router rendered, and the time taken'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'routerctl;version'= {
            cand -o 'Output format (as `kubectl version -o json|yaml`); plain text when unset'
            cand --output 'Output format (as `kubectl version -o json|yaml`); plain text when unset'
            cand --message-format 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format'
            cand -q 'Print no warnings and no progress (errors still go to stderr)'
            cand --quiet 'Print no warnings and no progress (errors still go to stderr)'
            cand -v 'Say what is being done: each router rendered, and the time taken'
            cand --verbose 'Say what is being done: each router rendered, and the time taken'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'routerctl;man'= {
            cand --message-format 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format'
            cand -q 'Print no warnings and no progress (errors still go to stderr)'
            cand --quiet 'Print no warnings and no progress (errors still go to stderr)'
            cand -v 'Say what is being done: each router rendered, and the time taken'
            cand --verbose 'Say what is being done: each router rendered, and the time taken'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'routerctl;help'= {
            cand render 'Print the objects the operator would write, ready for `kubectl apply -f -`'
            cand diff 'Show what the operator would change on the live objects'
            cand explain 'Explain every pod-template label and annotation and each record annotation: who owns it and what this reconcile does to it'
            cand test 'Check where requests go: run RouterTest cases against what each router''s data plane would decide'
            cand route 'Explain where one request goes: the rules tried, why each did not match, the one that did, and the backends in dispatch order'
            cand verify 'Prove where every request can go: the request space cut into classes that decide alike, each with a witness request; checks that hold for all requests; the invariants of RouterTest files; and with --against, every class whose destination a change moves'
            cand krm 'Run as a KRM function: read a ResourceList on stdin, append the rendered objects of every ModelRouter among its items, write it back'
            cand schema 'Print the JSON Schema (draft 2020-12) of a ModelRouter or of a RouterTest file, for editors and kubeconform'
            cand completions 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
            cand version 'Print routerctl''s version, the API it reads and the operator behaviour it mirrors'
            cand man 'Print the man page (roff), of routerctl or of one of its commands'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'routerctl;help;render'= {
        }
        &'routerctl;help;diff'= {
        }
        &'routerctl;help;explain'= {
        }
        &'routerctl;help;test'= {
        }
        &'routerctl;help;route'= {
        }
        &'routerctl;help;verify'= {
        }
        &'routerctl;help;krm'= {
        }
        &'routerctl;help;schema'= {
        }
        &'routerctl;help;completions'= {
        }
        &'routerctl;help;version'= {
        }
        &'routerctl;help;man'= {
        }
        &'routerctl;help;help'= {
        }
    ]
    $completions[$command]
}
