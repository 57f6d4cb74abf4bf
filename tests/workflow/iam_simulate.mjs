// Evaluates recorded AWS calls against each function's identity policies with @cloud-copilot/iam-simulate
// (pinned in package.json). stdin: {"account", "policies": {function: [{name, policy}]}, "calls": [{function,
// action, resource, resourcePolicy?, context, unchecked}]}; stdout: one {overall, detail} per call, overall
// being "Allowed", "ImplicitlyDenied", "ExplicitlyDenied" or "Error" (the simulator refused the request).
import { runSimulation, runUnsafeSimulation } from '@cloud-copilot/iam-simulate'

const chunks = []
for await (const chunk of process.stdin) chunks.push(chunk)
const input = JSON.parse(Buffer.concat(chunks).toString('utf8'))

const results = []
for (const call of input.calls) {
  const simulation = {
    request: {
      principal: `arn:aws:iam::${input.account}:role/${call.function}`,
      action: call.action,
      resource: { resource: call.resource, accountId: input.account },
      contextVariables: call.context
    },
    identityPolicies: input.policies[call.function] ?? [],
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    resourcePolicy: call.resourcePolicy ?? undefined
  }
  // `unchecked`: AWS authorizes the call on a resource the Service Authorization Reference does not list
  // (a task response on its state machine), which the validating entry point refuses.
  const response = call.unchecked
    ? { resultType: 'single', overallResult: runUnsafeSimulation(simulation, {}) }
    : await runSimulation(simulation, {})
  if (response.resultType === 'error') {
    results.push({ overall: 'Error', detail: JSON.stringify(response.errors) })
  } else {
    results.push({ overall: response.overallResult, detail: '' })
  }
}
process.stdout.write(JSON.stringify(results))
