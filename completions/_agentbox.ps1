
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'agentbox' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'agentbox'
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
        'agentbox' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Plans with ordered steps: create, track status, pick the next step')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create an agent home (.agent/) with its config, folders and tool links')
            [CompletionResult]::new('link', 'link', [CompletionResultType]::ParameterValue, 'Re-create or repair the links in .agent/tools/ (idempotent)')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check the home: config, folders, links, documents')
            [CompletionResult]::new('reindex', 'reindex', [CompletionResultType]::ParameterValue, 'Rebuild the search index from the files of the home')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            break
        }
        'agentbox;plan' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a plan from a title and --step flags, or from a plan file')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a plan as a checklist (default: the most recently updated active plan)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List plans, most recently updated first')
            [CompletionResult]::new('step', 'step', [CompletionResultType]::ParameterValue, 'Set a step''s status and/or note')
            [CompletionResult]::new('add-step', 'add-step', [CompletionResultType]::ParameterValue, 'Add a step (at the end, or after step N; later steps are renumbered)')
            [CompletionResult]::new('next', 'next', [CompletionResultType]::ParameterValue, 'Show the step to work on: the one in progress, else the first pending one')
            [CompletionResult]::new('archive', 'archive', [CompletionResultType]::ParameterValue, 'Archive a plan: it stays readable but takes no more changes')
            break
        }
        'agentbox;plan;create' {
            [CompletionResult]::new('--step', '--step', [CompletionResultType]::ParameterName, 'A step, in order (repeat for more)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Read the plan from a JSON or markdown file ("-" for stdin)')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'Plan id (default: derived from the title, made unique)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;plan;show' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;plan;list' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Include archived plans')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;plan;step' {
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'New status')
            [CompletionResult]::new('--note', '--note', [CompletionResultType]::ParameterName, 'Note for the step (an empty note clears it)')
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse the write unless the plan is at this version')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;plan;add-step' {
            [CompletionResult]::new('--after', '--after', [CompletionResultType]::ParameterName, 'Insert after step N (0 = at the top)')
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse the write unless the plan is at this version')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;plan;next' {
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'With --start: refuse the write unless the plan is at this version')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--start', '--start', [CompletionResultType]::ParameterName, 'Also mark that step in_progress (a mutation)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;plan;archive' {
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse the write unless the plan is at this version')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;init' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;link' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;doctor' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;reindex' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;completions' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
