# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_routerctl_global_optspecs
    string join \n q/quiet v/verbose message-format= h/help V/version
end

function __fish_routerctl_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_routerctl_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_routerctl_using_subcommand
    set -l cmd (__fish_routerctl_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c routerctl -n "__fish_routerctl_needs_command" -l message-format -d 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c routerctl -n "__fish_routerctl_needs_command" -s q -l quiet -d 'Print no warnings and no progress (errors still go to stderr)'
complete -c routerctl -n "__fish_routerctl_needs_command" -s v -l verbose -d 'Say what is being done: each router rendered, and the time taken'
complete -c routerctl -n "__fish_routerctl_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c routerctl -n "__fish_routerctl_needs_command" -s V -l version -d 'Print version'
complete -c routerctl -n "__fish_routerctl_needs_command" -f -a "render" -d 'Print the objects the operator would write, ready for `kubectl apply -f -`'
complete -c routerctl -n "__fish_routerctl_needs_command" -f -a "diff" -d 'Show what the operator would change on the live objects'
complete -c routerctl -n "__fish_routerctl_needs_command" -f -a "explain" -d 'Explain every pod-template label and annotation and each record annotation: who owns it and what this reconcile does to it'
complete -c routerctl -n "__fish_routerctl_needs_command" -f -a "test" -d 'Check where requests go: run RouterTest cases against what each router\'s data plane would decide'
complete -c routerctl -n "__fish_routerctl_needs_command" -f -a "route" -d 'Explain where one request goes: the rules tried, why each did not match, the one that did, and the backends in dispatch order'
complete -c routerctl -n "__fish_routerctl_needs_command" -f -a "verify" -d 'Prove where every request can go: the request space cut into classes that decide alike, each with a witness request; checks that hold for all requests; the invariants of RouterTest files; and with --against, every class whose destination a change moves'
complete -c routerctl -n "__fish_routerctl_needs_command" -f -a "krm" -d 'Run as a KRM function: read a ResourceList on stdin, append the rendered objects of every ModelRouter among its items, write it back'
complete -c routerctl -n "__fish_routerctl_needs_command" -f -a "schema" -d 'Print the JSON Schema (draft 2020-12) of a ModelRouter or of a RouterTest file, for editors and kubeconform'
complete -c routerctl -n "__fish_routerctl_needs_command" -f -a "completions" -d 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
complete -c routerctl -n "__fish_routerctl_needs_command" -f -a "completion" -d 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
complete -c routerctl -n "__fish_routerctl_needs_command" -f -a "version" -d 'Print routerctl\'s version, the API it reads and the operator behaviour it mirrors'
complete -c routerctl -n "__fish_routerctl_needs_command" -f -a "man" -d 'Print the man page (roff), of routerctl or of one of its commands'
complete -c routerctl -n "__fish_routerctl_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -s f -l filename -d 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -s n -l namespace -d 'Namespace for objects that do not name one (default: `default`)' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -l router-proxy-image -d 'The operator\'s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator\'s built-in default image, with a warning (an error with --strict)' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -l default-litellm-url -d 'The operator\'s --default-litellm-url: the address of litellm backends that set no url' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -l operator-version -d 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster\'s operator in cluster mode, else `next`. `routerctl version` lists the releases and what changed in each' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -s j -l jobs -d 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -l crd -d 'The cluster\'s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -l live -d 'Live objects (`kubectl get deploy,svc,cm,sa,role,rolebinding -o yaml`, a YAML stream, a single object, a directory or `-`) to merge into. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -l context -d 'The kubeconfig context kubectl uses to read the live objects' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -l kubeconfig -d 'The kubeconfig file kubectl uses to read the live objects' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -l request-timeout -d 'How long the whole cluster read may take, every kubectl together (a Go duration such as 30s or 2m, passed to each kubectl as its --request-timeout); what still runs is stopped up to 10s after' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -s o -l output -d 'Output format' -r -f -a "yaml\t''
json\t''
name\t'`resource[.group]/name`, one a line, as `kubectl get -o name`'"
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -l message-format -d 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -s R -l recursive -d 'Read the directories given to -f (and --live) with their subdirectories, as kubectl\'s -R'
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -l emit-scrape-annotations -d 'The operator\'s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)'
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -l strict -d 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors'
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -l live-from-cluster -d 'Read the live objects from the cluster through kubectl, as `diff` does'
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -s q -l quiet -d 'Print no warnings and no progress (errors still go to stderr)'
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -s v -l verbose -d 'Say what is being done: each router rendered, and the time taken'
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c routerctl -n "__fish_routerctl_using_subcommand render" -s V -l version -d 'Print version'
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -s f -l filename -d 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -s n -l namespace -d 'Namespace for objects that do not name one (default: `default`)' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -l router-proxy-image -d 'The operator\'s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator\'s built-in default image, with a warning (an error with --strict)' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -l default-litellm-url -d 'The operator\'s --default-litellm-url: the address of litellm backends that set no url' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -l operator-version -d 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster\'s operator in cluster mode, else `next`. `routerctl version` lists the releases and what changed in each' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -s j -l jobs -d 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -l crd -d 'The cluster\'s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -l live -d 'Live objects to compare with (as for `render --live`), instead of reading them from the cluster. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -l context -d 'The kubeconfig context kubectl uses to read the live objects' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -l kubeconfig -d 'The kubeconfig file kubectl uses to read the live objects' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -l request-timeout -d 'How long the whole cluster read may take, every kubectl together (a Go duration such as 30s or 2m, passed to each kubectl as its --request-timeout); what still runs is stopped up to 10s after' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -s o -l output -d '`diff`: unified diffs; `json`: the plan per router (objects created, updated, unchanged; whether the pods roll)' -r -f -a "diff\t''
json\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -l color -d 'When to colour the diff' -r -f -a "auto\t''
always\t''
never\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -l message-format -d 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -s R -l recursive -d 'Read the directories given to -f (and --live) with their subdirectories, as kubectl\'s -R'
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -l emit-scrape-annotations -d 'The operator\'s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)'
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -l strict -d 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors'
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -s q -l quiet -d 'Print no warnings and no progress (errors still go to stderr)'
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -s v -l verbose -d 'Say what is being done: each router rendered, and the time taken'
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c routerctl -n "__fish_routerctl_using_subcommand diff" -s V -l version -d 'Print version'
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -s f -l filename -d 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -s n -l namespace -d 'Namespace for objects that do not name one (default: `default`)' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -l router-proxy-image -d 'The operator\'s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator\'s built-in default image, with a warning (an error with --strict)' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -l default-litellm-url -d 'The operator\'s --default-litellm-url: the address of litellm backends that set no url' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -l operator-version -d 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster\'s operator in cluster mode, else `next`. `routerctl version` lists the releases and what changed in each' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -s j -l jobs -d 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -l crd -d 'The cluster\'s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -l live -d 'Live objects, as for `render --live`. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -l context -d 'The kubeconfig context kubectl uses to read the live objects' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -l kubeconfig -d 'The kubeconfig file kubectl uses to read the live objects' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -l request-timeout -d 'How long the whole cluster read may take, every kubectl together (a Go duration such as 30s or 2m, passed to each kubectl as its --request-timeout); what still runs is stopped up to 10s after' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -l message-format -d 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -s R -l recursive -d 'Read the directories given to -f (and --live) with their subdirectories, as kubectl\'s -R'
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -l emit-scrape-annotations -d 'The operator\'s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)'
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -l strict -d 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors'
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -l live-from-cluster -d 'Read the live objects from the cluster through kubectl, as `diff` does'
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -s q -l quiet -d 'Print no warnings and no progress (errors still go to stderr)'
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -s v -l verbose -d 'Say what is being done: each router rendered, and the time taken'
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c routerctl -n "__fish_routerctl_using_subcommand explain" -s V -l version -d 'Print version'
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -s f -l filename -d 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -s n -l namespace -d 'Namespace for objects that do not name one (default: `default`)' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -l router-proxy-image -d 'The operator\'s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator\'s built-in default image, with a warning (an error with --strict)' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -l default-litellm-url -d 'The operator\'s --default-litellm-url: the address of litellm backends that set no url' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -l operator-version -d 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster\'s operator in cluster mode, else `next`. `routerctl version` lists the releases and what changed in each' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -s j -l jobs -d 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -l crd -d 'The cluster\'s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -s t -l tests -d 'RouterTest files (or directories). Repeatable. Without it, the RouterTest documents among the -f files are run' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -l data-plane -d 'The data plane whose decisions the cases check' -r -f -a "auto\t'Each router\'s own `spec.dataPlane`'
proxy\t'As the router-proxy decides'
gateway\t'As Envoy decides on the rendered AIGatewayRoute'
both\t'Both, and every case where they disagree'"
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -l min-coverage -d 'Fail (exit 1) when the cases reach fewer than this percentage of the rules and the default route' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -s o -l output -d 'Output format' -r -f -a "text\t''
json\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -l message-format -d 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -s R -l recursive -d 'Read the directories given to -f (and --live) with their subdirectories, as kubectl\'s -R'
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -l emit-scrape-annotations -d 'The operator\'s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)'
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -l strict -d 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors'
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -l coverage -d 'Print the rules (and the default route) no case reached'
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -s q -l quiet -d 'Print no warnings and no progress (errors still go to stderr)'
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -s v -l verbose -d 'Say what is being done: each router rendered, and the time taken'
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c routerctl -n "__fish_routerctl_using_subcommand test" -s V -l version -d 'Print version'
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -s f -l filename -d 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -s n -l namespace -d 'Namespace for objects that do not name one (default: `default`)' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -l router-proxy-image -d 'The operator\'s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator\'s built-in default image, with a warning (an error with --strict)' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -l default-litellm-url -d 'The operator\'s --default-litellm-url: the address of litellm backends that set no url' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -l operator-version -d 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster\'s operator in cluster mode, else `next`. `routerctl version` lists the releases and what changed in each' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -s j -l jobs -d 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -l crd -d 'The cluster\'s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -l router -d 'The router (`namespace/name`, or a name) when the inputs hold several' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -l model -d 'The request body\'s `model`' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -s H -l header -d 'A request header, `name=value` (or `name: value`). Repeatable' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -l unhealthy -d 'A backend that is down (quarantined or failing). Repeatable, or a comma-separated list' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -l data-plane -d 'The data plane whose decision is explained' -r -f -a "auto\t'Each router\'s own `spec.dataPlane`'
proxy\t'As the router-proxy decides'
gateway\t'As Envoy decides on the rendered AIGatewayRoute'
both\t'Both, and every case where they disagree'"
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -s o -l output -d 'Output format' -r -f -a "text\t''
json\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -l message-format -d 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -s R -l recursive -d 'Read the directories given to -f (and --live) with their subdirectories, as kubectl\'s -R'
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -l emit-scrape-annotations -d 'The operator\'s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)'
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -l strict -d 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors'
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -s q -l quiet -d 'Print no warnings and no progress (errors still go to stderr)'
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -s v -l verbose -d 'Say what is being done: each router rendered, and the time taken'
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c routerctl -n "__fish_routerctl_using_subcommand route" -s V -l version -d 'Print version'
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -s f -l filename -d 'A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-` for stdin, holding ModelRouters and the InferenceServices and ModelPools they reference. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -s n -l namespace -d 'Namespace for objects that do not name one (default: `default`)' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -l router-proxy-image -d 'The operator\'s --router-proxy-image: the proxy image when a ModelRouter does not set spec.proxy.image. Without it (or when it is empty) such routers get the operator\'s built-in default image, with a warning (an error with --strict)' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -l default-litellm-url -d 'The operator\'s --default-litellm-url: the address of litellm backends that set no url' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -l operator-version -d 'The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a leading `v` is optional), or `next`, v0.9.19 with spec.proxy.podLabels/podAnnotations, which no release has yet. Default: found from the cluster\'s operator in cluster mode, else `next`. `routerctl version` lists the releases and what changed in each' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -s j -l jobs -d 'Routers reconciled at once (default: the cores available). Output and errors are the same for every value' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -l crd -d 'The cluster\'s CRDs (`kubectl get crd modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService and ModelPool CRDs): judge, prune and default those kinds by their schemas instead of the built-in ModelRouter schema. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -s t -l tests -d 'RouterTest files whose `invariants:` are checked for all requests (their `tests:` are `routerctl test`\'s). Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -l against -d 'The routers before the change (files or directories, as -f): every class of requests whose decision the change moves is listed. Repeatable' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -l data-plane -d 'The data plane whose decisions are verified' -r -f -a "auto\t'Each router\'s own `spec.dataPlane`'
proxy\t'As the router-proxy decides'
gateway\t'As Envoy decides on the rendered AIGatewayRoute'
both\t'Both, and every case where they disagree'"
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -l emit-tests -d 'Write one RouterTest case per class of requests to FILE: today\'s behaviour pinned, ready for `routerctl test`' -r -F
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -s o -l output -d 'Output format' -r -f -a "text\t''
json\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -l message-format -d 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -s R -l recursive -d 'Read the directories given to -f (and --live) with their subdirectories, as kubectl\'s -R'
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -l emit-scrape-annotations -d 'The operator\'s --emit-scrape-annotations: add prometheus.io/* pod annotations (and stop cleaning them up)'
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -l strict -d 'Treat what can only be assumed offline (a referenced InferenceService missing from the inputs, the built-in default proxy image) and unknown fields as errors'
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -s q -l quiet -d 'Print no warnings and no progress (errors still go to stderr)'
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -s v -l verbose -d 'Say what is being done: each router rendered, and the time taken'
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c routerctl -n "__fish_routerctl_using_subcommand verify" -s V -l version -d 'Print version'
complete -c routerctl -n "__fish_routerctl_using_subcommand krm" -l message-format -d 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand krm" -s q -l quiet -d 'Print no warnings and no progress (errors still go to stderr)'
complete -c routerctl -n "__fish_routerctl_using_subcommand krm" -s v -l verbose -d 'Say what is being done: each router rendered, and the time taken'
complete -c routerctl -n "__fish_routerctl_using_subcommand krm" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c routerctl -n "__fish_routerctl_using_subcommand krm" -s V -l version -d 'Print version'
complete -c routerctl -n "__fish_routerctl_using_subcommand schema" -l operator-version -d 'The LLMKube operator release whose CRD the ModelRouter schema follows: a field the release does not have is refused. Default: `next`. Not for `routertest`, which is the same for every release' -r
complete -c routerctl -n "__fish_routerctl_using_subcommand schema" -s o -l output -d 'Output format' -r -f -a "json\t''
yaml\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand schema" -l message-format -d 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand schema" -s q -l quiet -d 'Print no warnings and no progress (errors still go to stderr)'
complete -c routerctl -n "__fish_routerctl_using_subcommand schema" -s v -l verbose -d 'Say what is being done: each router rendered, and the time taken'
complete -c routerctl -n "__fish_routerctl_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c routerctl -n "__fish_routerctl_using_subcommand schema" -s V -l version -d 'Print version'
complete -c routerctl -n "__fish_routerctl_using_subcommand completions" -l message-format -d 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand completions" -s q -l quiet -d 'Print no warnings and no progress (errors still go to stderr)'
complete -c routerctl -n "__fish_routerctl_using_subcommand completions" -s v -l verbose -d 'Say what is being done: each router rendered, and the time taken'
complete -c routerctl -n "__fish_routerctl_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c routerctl -n "__fish_routerctl_using_subcommand completions" -s V -l version -d 'Print version'
complete -c routerctl -n "__fish_routerctl_using_subcommand completion" -l message-format -d 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand completion" -s q -l quiet -d 'Print no warnings and no progress (errors still go to stderr)'
complete -c routerctl -n "__fish_routerctl_using_subcommand completion" -s v -l verbose -d 'Say what is being done: each router rendered, and the time taken'
complete -c routerctl -n "__fish_routerctl_using_subcommand completion" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c routerctl -n "__fish_routerctl_using_subcommand completion" -s V -l version -d 'Print version'
complete -c routerctl -n "__fish_routerctl_using_subcommand version" -s o -l output -d 'Output format (as `kubectl version -o json|yaml`); plain text when unset' -r -f -a "json\t''
yaml\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand version" -l message-format -d 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand version" -s q -l quiet -d 'Print no warnings and no progress (errors still go to stderr)'
complete -c routerctl -n "__fish_routerctl_using_subcommand version" -s v -l verbose -d 'Say what is being done: each router rendered, and the time taken'
complete -c routerctl -n "__fish_routerctl_using_subcommand version" -s h -l help -d 'Print help'
complete -c routerctl -n "__fish_routerctl_using_subcommand version" -s V -l version -d 'Print version'
complete -c routerctl -n "__fish_routerctl_using_subcommand man" -l message-format -d 'How errors and warnings are written on stderr: `human` text, `json` (one object a line), `github` (workflow commands that annotate the file and line in a pull request) or `sarif` (one SARIF 2.1.0 log at the end). stdout is the same in every format' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c routerctl -n "__fish_routerctl_using_subcommand man" -s q -l quiet -d 'Print no warnings and no progress (errors still go to stderr)'
complete -c routerctl -n "__fish_routerctl_using_subcommand man" -s v -l verbose -d 'Say what is being done: each router rendered, and the time taken'
complete -c routerctl -n "__fish_routerctl_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c routerctl -n "__fish_routerctl_using_subcommand man" -s V -l version -d 'Print version'
complete -c routerctl -n "__fish_routerctl_using_subcommand help; and not __fish_seen_subcommand_from render diff explain test route verify krm schema completions version man help" -f -a "render" -d 'Print the objects the operator would write, ready for `kubectl apply -f -`'
complete -c routerctl -n "__fish_routerctl_using_subcommand help; and not __fish_seen_subcommand_from render diff explain test route verify krm schema completions version man help" -f -a "diff" -d 'Show what the operator would change on the live objects'
complete -c routerctl -n "__fish_routerctl_using_subcommand help; and not __fish_seen_subcommand_from render diff explain test route verify krm schema completions version man help" -f -a "explain" -d 'Explain every pod-template label and annotation and each record annotation: who owns it and what this reconcile does to it'
complete -c routerctl -n "__fish_routerctl_using_subcommand help; and not __fish_seen_subcommand_from render diff explain test route verify krm schema completions version man help" -f -a "test" -d 'Check where requests go: run RouterTest cases against what each router\'s data plane would decide'
complete -c routerctl -n "__fish_routerctl_using_subcommand help; and not __fish_seen_subcommand_from render diff explain test route verify krm schema completions version man help" -f -a "route" -d 'Explain where one request goes: the rules tried, why each did not match, the one that did, and the backends in dispatch order'
complete -c routerctl -n "__fish_routerctl_using_subcommand help; and not __fish_seen_subcommand_from render diff explain test route verify krm schema completions version man help" -f -a "verify" -d 'Prove where every request can go: the request space cut into classes that decide alike, each with a witness request; checks that hold for all requests; the invariants of RouterTest files; and with --against, every class whose destination a change moves'
complete -c routerctl -n "__fish_routerctl_using_subcommand help; and not __fish_seen_subcommand_from render diff explain test route verify krm schema completions version man help" -f -a "krm" -d 'Run as a KRM function: read a ResourceList on stdin, append the rendered objects of every ModelRouter among its items, write it back'
complete -c routerctl -n "__fish_routerctl_using_subcommand help; and not __fish_seen_subcommand_from render diff explain test route verify krm schema completions version man help" -f -a "schema" -d 'Print the JSON Schema (draft 2020-12) of a ModelRouter or of a RouterTest file, for editors and kubeconform'
complete -c routerctl -n "__fish_routerctl_using_subcommand help; and not __fish_seen_subcommand_from render diff explain test route verify krm schema completions version man help" -f -a "completions" -d 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
complete -c routerctl -n "__fish_routerctl_using_subcommand help; and not __fish_seen_subcommand_from render diff explain test route verify krm schema completions version man help" -f -a "version" -d 'Print routerctl\'s version, the API it reads and the operator behaviour it mirrors'
complete -c routerctl -n "__fish_routerctl_using_subcommand help; and not __fish_seen_subcommand_from render diff explain test route verify krm schema completions version man help" -f -a "man" -d 'Print the man page (roff), of routerctl or of one of its commands'
complete -c routerctl -n "__fish_routerctl_using_subcommand help; and not __fish_seen_subcommand_from render diff explain test route verify krm schema completions version man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
