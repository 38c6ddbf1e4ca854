// A bare node:http server answering every request with the same JSON body:
// the baseline the emulator's HTTP throughput is compared with.
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'

const body = readFileSync(process.argv[2] ?? '/dev/null')
const server = createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length })
    res.end(body)
  })
})
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
