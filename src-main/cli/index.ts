console.log('cairn')
