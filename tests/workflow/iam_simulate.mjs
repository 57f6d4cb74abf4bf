// Evaluates recorded AWS calls against each function's identity policies with @cloud-copilot/iam-simulate
// (pinned in package.json). stdin: {"account", "policies": {function: [{name, policy}]}, "calls": [{function,
// action, resource}]}; stdout: one result per call, {overall: "Allowed" | "ImplicitlyDenied" | ... | "Error", detail}.
import { runSimulation } from '@cloud-copilot/iam-simulate'

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
      contextVariables: {}
    },
    identityPolicies: input.policies[call.function] ?? [],
    serviceControlPolicies: [],
    resourceControlPolicies: []
  }
  const response = await runSimulation(simulation, {})
  if (response.resultType === 'error') {
    results.push({ overall: 'Error', detail: JSON.stringify(response.errors) })
  } else {
    results.push({ overall: response.overallResult, detail: '' })
  }
}
process.stdout.write(JSON.stringify(results))
